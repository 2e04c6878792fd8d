/**
 * Comments and project lessons in Chromium (issue #19 item 3), one portal and one browser: on a
 * project's record page a staff member reads a colleague's comment, writes one with a file,
 * answers the colleague (the answer steps in), by keyboard too; the thread fits 360 px in
 * uzCyrillic and ru; the Management menu holds the project lessons, whose video plays on the
 * lesson page. Screenshots at 1280 and 360 px into .tmp/screenshots/comments-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from '../../src/server/app.ts';
import {
  browserTestsEnabled,
  launchBrowser,
  newPortalContext,
  portalApi,
  signInThroughForm,
  startPortal,
  waitForScreen,
} from '../support/browser.ts';
import { TEST_ADMIN_PASSWORD } from '../support/app.ts';

const SHOTS = path.join(REPO_ROOT, '.tmp/screenshots');
const PASSWORD = 'comments-e2e-pass-1';
/** The head of an MP4 file: the server tells a video by these bytes. */
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2avc1mp41'),
  Buffer.alloc(4096),
]);

describe.skipIf(!browserTestsEnabled())('comments and project lessons in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let projectId: number;
  let lessonId: number;

  const pageAs = async (route: string, locale: string, width: number) => {
    const page = await (await newPortalContext(browser, locale, width)).newPage();
    await signInThroughForm(page, `${portal.url}${route}`, 'admin', TEST_ADMIN_PASSWORD);
    return page;
  };
  const openComments = async (page: Page) => {
    await waitForScreen(page, '[data-screen="project-detail"]');
    await page.locator('[data-tab="comments"]').click();
    await page.locator('[data-region="comments"]').waitFor();
  };
  const fitsWidth = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [portal, browser] = await Promise.all([startPortal(), launchBrowser()]);
    const { api, tokenOf } = portalApi(portal.url);
    const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const project = await api(admin, 'POST', '/api/project/create', {
      name: 'Raqobat tahlili 2026',
      projectType: 'INTERNAL',
    });
    projectId = Number(project.id);
    const user = await api(admin, 'POST', '/api/portal-user/create', {
      username: 'e2e-member',
      firstName: 'Dilnoza',
      lastName: 'Olimova',
      isOuter: false,
      canLogin: true,
      roles: ['commission-member'],
      regionId: 4,
    });
    await api(admin, 'POST', '/api/auth/set-password', { userId: user.id, password: PASSWORD });
    const member = await tokenOf('e2e-member', PASSWORD);
    await api(member, 'POST', `/api/project/comments/create/${projectId}`, {
      text: 'Hujjat loyihasi tayyor, koʻrib chiqing.\nMuddat — juma.',
    });
    const form = new FormData();
    form.append('files', new Blob([MP4], { type: 'video/mp4' }), 'lesson.mp4');
    const uploaded = await fetch(`${portal.url}/api/file-entity/save/project-lesson`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    const fileId = ((await uploaded.json()) as { list: Array<{ id: string }> }).list[0]!.id;
    const lesson = await api(admin, 'POST', '/api/project-lesson/create', {
      title: 'Tender tahlili saboqlari',
      description: 'Loyihadan olingan saboq',
      projectId,
      files: [fileId],
    });
    lessonId = Number(lesson.id);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('comments on a project with a file and answers a colleague, by mouse and keyboard (ru, 1280)', async () => {
    const page = await pageAs(`/admin/projects/${projectId}`, 'ru', 1280);
    await openComments(page);
    const theirs = page.locator('[data-region="comments"] > ul > li').first();
    await expect.poll(() => theirs.locator('p').first().innerText()).toContain('Hujjat loyihasi tayyor');
    expect(await theirs.innerText()).toContain('Olimova Dilnoza');
    // Not theirs to change: no edit or delete on a colleague's comment.
    expect(await theirs.locator('[data-action="comment-edit"]').count()).toBe(0);

    const composer = page.locator('[data-region="comments"] > [data-region="comment-composer"]');
    await composer.locator('textarea').fill('Koʻrib chiqdim. <b>Izohlar</b> ilovada.');
    await composer.locator('input[type="file"]').setInputFiles({
      name: 'izoh.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Izohlar matni\n'),
    });
    await composer.locator('[data-action="comment-send"]').click();
    const mine = page.locator('[data-region="comments"] > ul > li').nth(1);
    await expect.poll(() => mine.locator('p').first().innerText()).toBe('Koʻrib chiqdim. <b>Izohlar</b> ilovada.');
    expect(await mine.locator('a', { hasText: 'izoh.txt' }).count()).toBe(1);
    expect(await mine.locator('[data-action="comment-edit"]').count()).toBe(1);

    // The answer by keyboard: focus Reply, Enter, type, Ctrl+Enter sends.
    await theirs.locator('[data-action="comment-reply"]').first().focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('Rahmat, qabul qilindi.');
    await page.keyboard.press('Control+Enter');
    const answer = theirs.locator('ul li').first();
    await expect.poll(() => answer.locator('p').first().innerText()).toBe('Rahmat, qabul qilindi.');
    const indent = await answer.evaluate((el) => el.getBoundingClientRect().left);
    expect(indent).toBeGreaterThan(await theirs.evaluate((el) => el.getBoundingClientRect().left));
    await page.screenshot({ path: path.join(SHOTS, 'comments-project-ru-1280.png'), fullPage: true });
    await page.context().close();
  });

  it('the thread fits 360 px in uzCyrillic and ru; the tab texts are translated', async () => {
    for (const [locale, tab] of [
      ['uzCyrillic', 'Изоҳлар'],
      ['ru', 'Комментарии'],
    ] as const) {
      const page = await pageAs(`/admin/projects/${projectId}`, locale, 360);
      await openComments(page);
      expect(await page.locator('[data-tab="comments"]').innerText()).toBe(tab);
      await expect.poll(() => page.locator('[data-region="comments"] [data-comment]').count()).toBe(3);
      expect(await fitsWidth(page)).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `comments-project-${locale}-360.png`), fullPage: true });
      await page.context().close();
    }
  });

  it('the Management menu holds the project lessons; a lesson video plays on its page', async () => {
    const page = await pageAs(`/admin/project-lessons/${lessonId}`, 'uzCyrillic', 1280);
    await waitForScreen(page, '[data-screen="project-lesson-detail"]');
    expect(await page.locator('[data-section="menu.section.management"]').textContent()).toBe('Бошқарув');
    await page.locator('[data-action="play-video"]').click();
    const video = page.locator('video[data-video="lesson.mp4"]');
    await video.waitFor();
    // Fetched with the session, as a download is: played from memory.
    expect(await video.getAttribute('src')).toMatch(/^blob:/);
    await page.screenshot({ path: path.join(SHOTS, 'comments-lesson-uzCyrillic-1280.png'), fullPage: true });
    await page.context().close();
  });
});
