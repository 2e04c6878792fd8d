/**
 * What a person does in Debian's Chromium, for every entity the definitions describe:
 * create it through its form or wizard, find it in its list (sort, filter, page), open its
 * detail page; switch language; see the 404 page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { browserTestsEnabled, launchBrowser, startPortal, newPortalContext } from '../support/browser.ts';
import { createSampler } from '../support/sample-data.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';
import { fillForm } from '../support/fill-form.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const screens = [...registry.screens.values()];
const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');

describe.skipIf(!browserTestsEnabled())('the portal in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let page: Page;
  let adminAuth: Record<string, string>;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await launchBrowser();
    context = await newPortalContext(browser);
    page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    const signIn = await fetch(`${portal.url}/api/auth-payload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    adminAuth = {
      authorization: `Bearer ${((await signIn.json()) as { token: string }).token}`,
      'content-type': 'application/json',
    };
  });

  it('sends a signed-out visitor of a staff screen to sign in, and back there after it', async () => {
    const list = screens.find((s) => s.kind === 'list')!;
    await page.goto(`${portal.url}${list.route}`);
    await page.locator('[data-screen="login"]').waitFor();
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(list.route);
    // Signed out, the menu holds the public services only.
    await expect
      .poll(() => page.locator('[data-region="menu"] [data-menu]').count())
      .toBe(screens.filter((s) => s.menu && s.permission === 'public').length);
    await page.locator('[data-field="/username"] input').fill('admin');
    await page.locator('[data-field="/password"] input').fill('wrong password!');
    await page.locator('[data-action="sign-in"]').click();
    // A wrong password stays on the form, as its error summary.
    await page.locator('[data-screen="login"] [data-region="error-summary"]').waitFor();
    expect(await page.locator('[data-region="error-summary"]').innerText()).toContain('Wrong username or password');
    await page.locator('[data-field="/password"] input').fill(TEST_ADMIN_PASSWORD);
    await new Promise((r) => setTimeout(r, 1100));
    await page.locator('[data-action="sign-in"]').click();
    await page.locator(`[data-screen="${list.id}"]`).first().waitFor();
    expect(new URL(page.url()).pathname).toBe(list.route);
    expect(await page.locator('[data-region="menu"] [data-menu]').count()).toBeGreaterThan(5);
    await page.locator('[data-user="admin"]').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  for (const def of registry.entities.values()) {
    // The entity's own screens: the create form without a view, and the list of the same family
    // (an entity may have a second family for other people, such as the delegated user screens).
    const create = screens.find(
      (s) =>
        s.entity === def.id &&
        (s.kind === 'form' || s.kind === 'wizard') &&
        !s.route.includes(':id') &&
        !s.options?.view,
    );
    const list =
      screens.find((s) => s.entity === def.id && s.kind === 'list' && (!create || create.route === `${s.route}/new`)) ??
      screens.find((s) => s.entity === def.id && s.kind === 'list');
    it.runIf(create && list)(
      `${def.id}: created through its ${create?.kind}, found in its list, shown on its page`,
      async () => {
        const draw = createSampler(def.schema, registry.references, createServerAjv());
        // A screen whose new records start with fixed values (`options.initial`: the goods report's
        // wizard) is filled with a sample that has them.
        const initial = (create!.options?.initial ?? {}) as Record<string, unknown>;
        let seed = 7;
        let sample = draw(seed, { full: false, minimal: true });
        while (Object.entries(initial).some(([k, v]) => sample[k] !== v) && seed < 200)
          sample = draw(++seed, { full: false, minimal: true });
        await page.goto(`${portal.url}${list!.route}`);
        await page.locator(`[data-screen="${list!.id}"] [data-action="create"]`).click();
        await page.locator(`[data-screen="${create!.id}"] [data-entity="${def.id}"]`).waitFor();
        const filled = new Set<string>();
        if (create!.kind === 'wizard') {
          for (;;) {
            for (const p of await fillForm(page, def.schema, sample)) filled.add(p);
            const next = page.locator('[data-action="next"]');
            if (!(await next.count())) break;
            const step = await page.locator(`[data-screen="${create!.id}"]`).getAttribute('data-step');
            await next.click();
            const moved = await page
              .waitForFunction(
                (from) => document.querySelector('[data-step]')?.getAttribute('data-step') !== from,
                step,
                { timeout: 5000 },
              )
              .then(
                () => true,
                () => false,
              );
            if (!moved) {
              await page.screenshot({ path: path.join(SHOTS, `${def.id}-stuck.png`), fullPage: true });
              throw new Error(
                `wizard step ${step} did not advance: ${await page.locator('[role="alert"], .fui-Field__validationMessage').allInnerTexts()}`,
              );
            }
          }
          await page.locator('[data-field="/__confirm"] input[type=checkbox]').check();
        } else {
          for (const p of await fillForm(page, def.schema, sample)) filled.add(p);
        }
        await page.screenshot({ path: path.join(SHOTS, `${def.id}-form.png`), fullPage: true });
        await page.locator('[data-action="save"]').click();
        await page.locator('[data-dialog="confirm"] [data-action="confirm"]').click();
        const detail =
          screens.find((s) => s.entity === def.id && s.kind === 'detail' && s.route === `${list!.route}/:id`) ??
          screens.find((s) => s.entity === def.id && s.kind === 'detail')!;
        const shown = page.locator(`[data-screen="${detail.id}"][data-record]`);
        await shown.waitFor({ timeout: 15_000 });
        const id = Number(await shown.getAttribute('data-record'));
        const stored = (await (
          await fetch(`${portal.url}/api${def.manifest.base}/get/${id}`, { headers: adminAuth })
        ).json()) as Record<string, unknown>;
        for (const [k, v] of Object.entries(sample)) if (typeof v !== 'object') expect(stored[k], k).toEqual(v);
        await page.screenshot({ path: path.join(SHOTS, `${def.id}-detail.png`), fullPage: true });

        await page.goto(`${portal.url}${list!.route}`);
        // A grid's rows, or a cabinet list's cards (a business's own self-assessments).
        const rowsOrCards = page.locator(`[data-screen="${list!.id}"] :is(.ag-row, [data-card])`);
        await rowsOrCards.first().waitFor();
        expect(await rowsOrCards.count()).toBeGreaterThanOrEqual(1);
      },
    );
  }

  it('sorts, filters and pages a list like a person would', async () => {
    const def = [...registry.entities.values()].find(
      (d) => d.manifest.keywordFields?.length && screens.some((s) => s.entity === d.id && s.kind === 'list'),
    )!;
    const list = screens.find((s) => s.entity === def.id && s.kind === 'list')!;
    const sample = createSampler(def.schema, registry.references, createServerAjv());
    for (let i = 0; i < 25; i++) {
      const res = await fetch(`${portal.url}/api${def.manifest.base}/create`, {
        method: 'POST',
        headers: adminAuth,
        body: JSON.stringify(sample(500 + i, { full: true })),
      });
      expect(res.status).toBe(200);
    }
    const total = (
      (await (
        await fetch(`${portal.url}/api${def.manifest.base}/list-search`, {
          method: 'POST',
          headers: adminAuth,
          body: '{}',
        })
      ).json()) as { total: number }
    ).total;
    await page.goto(`${portal.url}${list.route}`);
    const rows = page.locator(`[data-screen="${list.id}"] .ag-row`);
    await rows.first().waitFor();
    expect(await rows.count()).toBe(Math.min(20, total));

    // Page size 10, then the second page.
    await page.locator('[data-action="page-size"] select, select[data-action="page-size"]').first().selectOption('10');
    await expect.poll(() => rows.count()).toBe(10);
    await page.locator('[data-action="next-page"]').click();
    await expect.poll(() => page.url()).toContain('page=2');

    // Sort by the id column, both ways: the first row's id follows.
    const idHeader = page.locator('.ag-header-cell[col-id="/id"], .ag-header-cell[col-id="id"]').first();
    await idHeader.click();
    const firstId = () => page.locator('.ag-row[row-index="0"] [col-id="/id"]').first().innerText();
    await expect.poll(firstId).toBe('1');
    await idHeader.click();
    await expect.poll(firstId).toBe(String(total));

    // Keyword filter narrows the list to what the server says matches.
    const word = String(sample(500, { full: true })[def.manifest.keywordFields![0]!.slice(1)] ?? '').slice(0, 4);
    if (word) {
      await page.locator('[data-filter="keyword"] input').fill(word);
      const expected = (
        (await (
          await fetch(`${portal.url}/api${def.manifest.base}/list-search?keyword=${encodeURIComponent(word)}`, {
            method: 'POST',
            headers: adminAuth,
            body: '{}',
          })
        ).json()) as { total: number }
      ).total;
      await expect.poll(() => rows.count()).toBe(Math.min(10, expected));
    }
    await page.screenshot({ path: path.join(SHOTS, 'list.png'), fullPage: true });
  });

  it('switches language without a reload and remembers it', async () => {
    const list = screens.find((s) => s.kind === 'list')!;
    await page.goto(`${portal.url}${list.route}`);
    const title = page.locator('h1').first();
    await title.waitFor();
    const english = await title.innerText();
    await page.locator('[data-action="language"]').selectOption('ru');
    await expect.poll(() => title.innerText()).not.toBe(english);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    const russian = await title.innerText();
    expect(russian).toMatch(/[А-Яа-яЁё]/);
    await page.reload();
    await expect.poll(() => page.locator('h1').first().innerText()).toBe(russian);
    for (const locale of ['uzCyrillic', 'uz', 'en']) {
      await page.locator('[data-action="language"]').selectOption(locale);
      await page.screenshot({ path: path.join(SHOTS, `list-${locale}.png`) });
    }
    await expect.poll(() => page.locator('h1').first().innerText()).toBe(english);
  });

  it('shows the not-found page for an unknown path, and works on a 360 px phone', async () => {
    await page.goto(`${portal.url}/no/such/page`);
    await page.locator('[data-screen="not-found"]').waitFor();
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await phone.goto(`${portal.url}/`);
    await phone.locator('[data-region="header"]').waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: path.join(SHOTS, 'home-phone.png'), fullPage: true });
    await phone.close();
  });

  it('signs out and lands on the public page with the public menu only', async () => {
    await page.goto(`${portal.url}/`);
    await page.locator('[data-action="sign-out"]').click();
    await page.waitForURL(`${portal.url}/`);
    await page.locator('[data-action="open-sign-in"]').waitFor();
    const publicMenu = screens
      .filter((s) => s.menu && s.permission === 'public')
      .map((s) => s.id)
      .sort();
    expect(
      (
        await page
          .locator('[data-region="menu"] [data-menu]')
          .evaluateAll((links) => links.map((l) => l.getAttribute('data-menu')))
      ).sort(),
    ).toEqual(publicMenu);
    expect(await page.evaluate(() => localStorage.getItem('portal.accessToken'))).toBeNull();
  });
});
