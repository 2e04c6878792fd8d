/**
 * The project task board in Chromium (issue #19 item 3), one portal and one browser: a card
 * dragged with the mouse into another column, another moved with the keyboard (space, arrow,
 * space), the order still there after a reload, a card added in a dialog; the project page links to its board; my tasks
 * lists the card assigned to the user; screenshots at 1280 px (ru) and 360 px (uzCyrillic),
 * where the columns scroll inside the board and the page never sideways.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserTestsEnabled, waitForScreen } from '../support/browser.ts';
import { openStaffBrowser, SHOTS, type StaffBrowser } from '../support/staff-browser.ts';

describe.skipIf(!browserTestsEnabled())('the task board in Chromium', () => {
  let ctx: StaffBrowser;
  let portal: StaffBrowser['portal'];
  let api: StaffBrowser['api'];
  let admin: string;
  let project: number;
  const col: Record<string, number> = {};
  const card: Record<string, number> = {};

  const pageAt = (route: string, locale: string, width: number) => ctx.pageAs(route, locale, width);
  /** The card names of a column as the page shows them, in order. */
  const shown = (page: Page, column: number) =>
    page
      .locator(`[data-column="${column}"] [data-card]`)
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-card-name')));
  /** The card names of a column as the server keeps them, in order. */
  const stored = async (column: number) =>
    (
      (await api(admin, 'POST', `/api/project-task-card/list-search?taskId=${column}`, { sortBy: ['position', 'id'] }))
        .list as Array<{ name: string }>
    ).map((c) => c.name);

  beforeAll(async () => {
    ctx = await openStaffBrowser();
    ({ portal, api, admin } = ctx);
    const me = (await api(admin, 'GET', '/api/auth/profile')) as { id?: number };
    project = (await api(admin, 'POST', '/api/project/create', { name: 'Tariff review', projectType: 'COMMISSION' }))
      .id as number;
    for (const [i, name] of ['To do', 'Doing', 'Done'].entries())
      col[name] = (await api(admin, 'POST', '/api/project-task/create', { name, projectId: project, position: i }))
        .id as number;
    for (const [name, column, position, color] of [
      ['Collect prices', 'To do', 0, 'blue'],
      ['Draft the memo', 'To do', 1, 'red'],
      ['Call the region', 'To do', 2, 'green'],
      ['Check the law', 'Doing', 0, 'purple'],
    ] as const)
      card[name] = (
        await api(admin, 'POST', '/api/project-task-card/create', {
          name,
          taskId: col[column],
          projectId: project,
          position,
          color,
          deadline: '2026-12-01',
          employeeIds: me.id ? [me.id] : [1],
        })
      ).id as number;
  }, 120_000);
  afterAll(() => ctx?.close());

  it('drags a card with the mouse, moves one with the keyboard, and the order survives a reload', async () => {
    const page = await pageAt(`/admin/projects/${project}/board`, 'ru', 1280);
    await waitForScreen(page, '[data-screen="project-board"]');
    await page.locator('[data-card]').first().waitFor();
    expect(await shown(page, col['To do']!)).toEqual(['Collect prices', 'Draft the memo', 'Call the region']);

    // The mouse: "Collect prices" by its handle onto "Check the law" in Doing.
    const handle = page.locator(`[data-card="${card['Collect prices']}"] [data-action="drag"]`);
    const target = page.locator(`[data-card="${card['Check the law']}"]`);
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++)
      await page.mouse.move(
        from.x + ((to.x + 20 - from.x) * i) / 10,
        from.y + ((to.y + to.height / 4 - from.y) * i) / 10,
      );
    await page.mouse.up();
    await page.locator(`[data-column="${col.Doing}"] [data-card="${card['Collect prices']}"]`).waitFor();
    await expect.poll(() => stored(col.Doing!)).toContain('Collect prices');

    // The keyboard: "Call the region" picked up with space, one column right, dropped with space.
    const keyHandle = page.locator(`[data-card="${card['Call the region']}"] [data-action="drag"]`);
    await keyHandle.focus();
    await page.keyboard.press('Space');
    // Picked up (dnd-kit marks the handle pressed; the announcement moves on to where it is at once).
    await page.locator(`[data-card="${card['Call the region']}"] [data-action="drag"][aria-pressed="true"]`).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByText(/Call the region над местом: Doing/).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await page.locator(`[data-column="${col.Doing}"] [data-card="${card['Call the region']}"]`).waitFor();
    await expect.poll(() => stored(col['To do']!)).toEqual(['Draft the memo']);
    const doing = await stored(col.Doing!);
    expect(doing).toHaveLength(3);
    expect(doing).toEqual(expect.arrayContaining(['Collect prices', 'Call the region', 'Check the law']));

    // A reload shows the order the server keeps.
    await page.reload();
    await waitForScreen(page, '[data-screen="project-board"]');
    await page.locator(`[data-column="${col.Doing}"] [data-card]`).first().waitFor();
    expect(await shown(page, col.Doing!)).toEqual(doing);
    expect(await shown(page, col['To do']!)).toEqual(['Draft the memo']);
    // A card added to Done in a dialog with the card's own form (column, project and place filled by the board).
    await page.locator(`[data-column="${col.Done}"] [data-action="add-card"]`).click();
    const dialog = page.locator('[data-dialog="board-project-task-card"]');
    await dialog.locator('[data-field="/name"] input').fill('Write the answer');
    await dialog.locator('[data-action="send"]').click();
    await page.locator(`[data-column="${col.Done}"] [data-card-name="Write the answer"]`).waitFor();
    expect(await stored(col.Done!)).toEqual(['Write the answer']);
    // A card's menu offers the moves without dragging.
    await page.locator(`[data-card="${card['Draft the memo']}"] [data-action="card-menu"]`).click();
    await page.locator('[data-action="move-right"]').waitFor();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: path.join(SHOTS, 'board-1280-ru.png'), fullPage: true });
    await page.context().close();
  });

  it('links the board from the project page; fits 360 px; my tasks lists the assigned card', async () => {
    const page = await pageAt(`/admin/projects/${project}`, 'uzCyrillic', 360);
    await waitForScreen(page, '[data-screen="project-detail"]');
    await page.locator('[data-action="project-board"]').click();
    await waitForScreen(page, '[data-screen="project-board"]');
    await page.locator('[data-card]').first().waitFor();
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBeLessThanOrEqual(0);
    // The columns scroll inside the board instead.
    const inner = await page.locator('[data-board-columns]').evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(inner).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'board-360-uzCyrillic.png'), fullPage: true });

    await page.goto(`${portal.url}/admin/my-tasks`);
    await waitForScreen(page, 'section[data-screen="my-tasks"]');
    await page.getByText('Draft the memo').first().waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'board-my-tasks-360-uzCyrillic.png'), fullPage: true });
    await page.context().close();
  });
});
