/**
 * The staff home and where sign-in leads, in Chromium (one portal, one browser): the admin signs
 * in with the form and lands on the staff home; an executor sees the record assigned to them
 * under "my work" with its state in the machine's words, opens it and finds it under "recently
 * opened"; a citizen signing in lands on the cabinet and is sent there from /admin too.
 * Screenshots at 1280 and 360 px in Russian and Uzbek (Cyrillic) go to .tmp/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createServerAjv } from '../../src/server/validation.ts';
import { statesAwaitingUser } from '../../src/definitions/work-queue.ts';
import { createAbility, rulesFromPermissions } from '../../src/shared/ability.ts';
import { pointerSegments, setAt } from '../../src/shared/pointer.ts';
import { statesKeyOf } from '../../src/shared/format.ts';
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
import { axeProblems, SHOTS } from '../support/public-browser.ts';
import { registry } from '../support/workflow-browser.ts';
import { createSampler } from '../support/sample-data.ts';

const PASSWORD = 'Str0ng-enough-passw0rd!';
const access = registry.access!;
const home = [...registry.screens.values()].find((s) => s.kind === 'workspace')!;
const outerRole = access.outerRoles![0]!;
const cabinet = [...registry.screens.values()]
  .filter((s) => s.audience === 'outer' && s.menu && !s.route.includes(':'))
  .sort((a, b) => (a.menu!.order ?? 0) - (b.menu!.order ?? 0))
  .find((s) => {
    const role = access.roles.find((r) => r.code === outerRole)!;
    const [rule] = rulesFromPermissions([s.permission]);
    return rule && createAbility(rulesFromPermissions(role.permissions)).can(rule.action, rule.subject);
  })!;
// A regional staff role that acts in an awaiting state of an entity with a region and a record page.
const cell = access.roles
  .filter((r) => r.scope === 'REGION')
  .flatMap((role) =>
    [...registry.entities.values()].flatMap((def) => {
      const machine = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
      const ability = createAbility(rulesFromPermissions(role.permissions));
      const detail = [...registry.screens.values()].some((s) => s.entity === def.id && s.kind === 'detail');
      if (!machine || !detail || !def.manifest.scope?.regionField || !ability.can('read', def.manifest.subject))
        return [];
      return statesAwaitingUser(machine, (e) => ability.can(e, def.manifest.subject)).map((g) => ({
        role,
        def,
        field: g.field,
        state: g.states[0]!,
      }));
    }),
  )[0]!;
const stateLabel = (locale: 'ru' | 'uzCyrillic'): string => {
  const key = `${statesKeyOf(cell.def.manifest)}.${cell.state}`.split('.');
  return key.reduce<any>((o, k) => o?.[k], registry.locales[locale]); // eslint-disable-line @typescript-eslint/no-explicit-any
};

describe.skipIf(!browserTestsEnabled())('the staff home in Chromium', () => {
  let browser: Browser;
  let portal: Awaited<ReturnType<typeof startPortal>>;
  let recordId: number;
  const region = Number(registry.references.get('region')!.items[0]!.id);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    portal = await startPortal();
    browser = await launchBrowser();
    const { tokenOf, api } = portalApi(portal.url);
    const admin = await tokenOf('admin', TEST_ADMIN_PASSWORD);
    const user = async (username: string, roles: string[], isOuter: boolean) => {
      const created = await api(admin, 'POST', '/api/portal-user/create', {
        username,
        firstName: 'Dilnoza',
        lastName: 'Karimova',
        isOuter,
        canLogin: true,
        roles,
        ...(isOuter ? {} : { regionId: region }),
      });
      await api(admin, 'POST', '/api/auth/set-password', { userId: created.id, password: PASSWORD });
      return Number(created.id);
    };
    const executorId = await user('executor-e2e', [cell.role.code], false);
    await user('citizen-e2e', [outerRole], true);
    const sample = createSampler(cell.def.schema, registry.references, createServerAjv())(7, { full: true });
    setAt(sample, cell.def.manifest.scope!.regionField!, region);
    recordId = Number((await api(admin, 'POST', `/api${cell.def.manifest.base}/create`, sample)).id);
    // Test setup only: the state and the assignee are placed directly (the machine's paths are tested elsewhere).
    const table = (portal.app as unknown as { tables: Map<string, { table: string }> }).tables.get(cell.def.id)!.table;
    await portal.app.db.query(
      `UPDATE ${table} SET status = $1, data = jsonb_set(data, $2::text[], to_jsonb($3::int)) WHERE id = $4`,
      [cell.state, pointerSegments(cell.field), executorId, recordId],
    );
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** A fresh browser context (no session) at `width` in `locale`. */
  const freshPage = async (locale: string, width = 1280): Promise<Page> =>
    (await newPortalContext(browser, locale, width)).newPage();
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

  it('the admin signs in with the form and lands on the staff home', async () => {
    const page = await freshPage('ru');
    await signInThroughForm(page, `${portal.url}/login`, 'admin', TEST_ADMIN_PASSWORD);
    await waitForScreen(page, `[data-screen="${home.id}"]`);
    expect(new URL(page.url()).pathname).toBe(home.route);
    await page.locator('[data-region="my-work"][data-loaded]').waitFor();
    expect(await page.locator('h1').count()).toBe(1);
    // The logo leads staff home.
    expect(await page.locator('[data-action="home"]').getAttribute('href')).toBe(home.route);
    expect(await page.locator('[data-region="quick-create"] a').count()).toBeGreaterThan(0);
    expect(await axeProblems(page, [`[data-screen="${home.id}"]`])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'staff-home-admin-ru-1280.png'), fullPage: true });
    await page.context().close();
  });

  it('an executor sees the record assigned to them under my work with its state, opens it, finds it under recently opened', async () => {
    const page = await freshPage('uzCyrillic');
    await signInThroughForm(page, `${portal.url}/login`, 'executor-e2e', PASSWORD);
    await waitForScreen(page, `[data-screen="${home.id}"]`);
    const row = page.locator(`[data-work-entity="${cell.def.id}"] [data-work-record="${recordId}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe(cell.state);
    expect(await row.locator('[data-state-label]').innerText()).toBe(stateLabel('uzCyrillic'));
    expect(await axeProblems(page, [`[data-screen="${home.id}"]`])).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'staff-home-executor-uzCyrillic-1280.png'), fullPage: true });

    await row.locator('a').first().click();
    await page.locator(`[data-record="${recordId}"]`).waitFor();
    await page.locator('[data-action="home"]').click();
    await waitForScreen(page, `[data-screen="${home.id}"]`);
    await page.locator(`[data-region="recent"] a[href$="/${recordId}"]`).waitFor();

    await page.setViewportSize({ width: 360, height: 800 });
    await page.reload();
    await row.waitFor();
    expect(await sideways(page)).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, 'staff-home-executor-uzCyrillic-360.png'), fullPage: true });

    // The same in Russian: the state in the machine's Russian words.
    await page.evaluate(() => localStorage.setItem('portal.locale', JSON.stringify('ru')));
    await page.reload();
    await row.waitFor();
    expect(await row.locator('[data-state-label]').innerText()).toBe(stateLabel('ru'));
    expect(await sideways(page)).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, 'staff-home-executor-ru-360.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await row.waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'staff-home-executor-ru-1280.png'), fullPage: true });
    await page.context().close();
  });

  it('a citizen signing in lands on the cabinet, and /admin sends them there', async () => {
    const page = await freshPage('uzCyrillic', 360);
    await signInThroughForm(page, `${portal.url}/login`, 'citizen-e2e', PASSWORD);
    await waitForScreen(page, `[data-screen="${cabinet.id}"]:not([data-state])`);
    expect(new URL(page.url()).pathname).toBe(cabinet.route);
    await page.goto(`${portal.url}${home.route}`);
    await waitForScreen(page, `[data-screen="${cabinet.id}"]:not([data-state])`);
    expect(await page.locator(`[data-screen="${home.id}"]`).count()).toBe(0);
    await page.context().close();
  });
});
