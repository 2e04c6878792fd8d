// @vitest-environment happy-dom
/**
 * The integration pages (screen kind `integration`, the real screens/*.json) under the real
 * DataProvider against a scripted server: the agencies with their status, breaker and the
 * sandbox label; the audit's rows, filters and export; the health table. The agency page is
 * AgencyView.test.tsx.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor, within } from '@testing-library/react';
import { renderScreen } from '../screens-testing.tsx';
import agenciesScreen from '../../../screens/integrations.json';
import auditScreen from '../../../screens/integration-audit.json';
import healthScreen from '../../../screens/integration-health.json';
import IntegrationScreen from './IntegrationScreen.tsx';
import { screenOf, server, shown } from './integration-testing.ts';

vi.mock('../../definitions/client.ts', async () => {
  const mock = (await import('../test-entity.ts')).definitionsClientMock;
  const own = await Promise.all(
    ['integrations', 'integration-agency', 'integration-audit', 'integration-health'].map(
      async (id) => (await import(`../../../screens/${id}.json`)).default,
    ),
  );
  return { ...mock, screens: [...mock.screens, ...own] };
});

describe('the agencies page', () => {
  it('shows each agency with its status and breaker, the sandbox label, and leads to its page', async () => {
    renderScreen(IntegrationScreen, screenOf(agenciesScreen), '/admin/integrations', server().dataProvider);
    const card = await shown('[data-agency="registry"]');
    const root = document.querySelector<HTMLElement>('[data-screen="integrations"]')!;
    expect(root.dataset.sandbox).toBe('true');
    expect(root.querySelector('[data-region="sandbox-banner"]')!.textContent).toMatch(/test data/);
    expect(card.querySelector('[data-status]')!.getAttribute('data-status')).toBe('sandbox');
    expect(card.querySelector('[data-breaker]')!.textContent).toBe('Answering');
    expect(card.querySelector('a[data-action="open-agency"]')!.getAttribute('href')).toBe(
      '/admin/integrations/registry',
    );
    expect(within(card).getByText('Queries: 3')).toBeTruthy();
    expect(card.querySelector('[data-method="person"] [aria-label="Personal data"]')).toBeTruthy();
    expect(card.querySelector('[data-method="company"] [aria-label="Personal data"]')).toBeNull();
    expect(document.querySelector('[data-agency="offline"] [data-status]')!.textContent).toBe('Not connected');
    // The audit and the health pages for those who may open them.
    expect(document.querySelector('[data-menu-link="integration-audit"]')!.getAttribute('href')).toBe(
      '/admin/integrations/audit',
    );
  });
});

describe('the audit page', () => {
  it('lists the calls with titles and masked parameters, filters them and exports under the same filters', async () => {
    const row = {
      id: 5,
      at: '2026-03-05T19:30:00.000Z',
      userId: '2',
      userName: 'ivanov',
      agency: 'registry',
      method: 'person',
      personalData: true,
      params: { pinfl: '31••••••••••12' },
      purpose: 'Appeal 14-05/124',
      recordEntity: 'gadget',
      recordId: 7,
      outcome: 'ok',
      httpStatus: 200,
      durationMs: 15,
      cached: false,
    };
    const s = server({
      'GET /api/integrations/audit/titles': () => ({
        agencies: [{ id: 'registry', title: 'Registry Office', methods: [{ id: 'person', title: 'Person check' }] }],
      }),
      'POST /api/integrations/audit/list-search': () => ({ list: [row], total: 1 }),
    });
    const { user } = renderScreen(
      IntegrationScreen,
      screenOf(auditScreen),
      '/admin/integrations/audit',
      s.dataProvider,
    );
    const tr = await shown('[data-call="5"]');
    await waitFor(() => expect(tr.querySelector('[data-cell="agency"]')!.textContent).toBe('Registry Office'));
    const cell = (name: string) => tr.querySelector(`[data-cell="${name}"]`)!.textContent;
    expect(cell('at')).toBe('06.03.2026 00:30');
    expect(cell('method')).toBe('Person check');
    expect(cell('params')).toBe('pinfl=31••••••••••12');
    expect(cell('purpose')).toBe('Appeal 14-05/124');
    expect(cell('outcome')).toBe('Found');
    expect(cell('record')).toBe('Gadget № 7');
    expect(s.sent('/api/integrations/audit/list-search')[0]).toEqual({ page: 0, size: 20 });

    await user.selectOptions(document.querySelector<HTMLSelectElement>('[data-filter="agency"]')!, 'registry');
    await user.selectOptions(document.querySelector<HTMLSelectElement>('[data-filter="outcome"]')!, 'ok');
    await user.selectOptions(document.querySelector<HTMLSelectElement>('[data-filter="personalData"]')!, 'true');
    await waitFor(() =>
      expect(s.sent('/api/integrations/audit/list-search').at(-1)).toEqual({
        agency: 'registry',
        outcome: 'ok',
        personalData: true,
        page: 0,
        size: 20,
      }),
    );
    const href = document.querySelector('[data-action="export"]')!.getAttribute('href')!;
    expect(href.split('?')[0]).toBe('/api/integrations/audit/export.xlsx');
    expect(Object.fromEntries(new URLSearchParams(href.split('?')[1]))).toEqual({
      agency: 'registry',
      outcome: 'ok',
      personalData: 'true',
    });
  });
});

describe('the health page', () => {
  it('shows each agency’s connection, breaker, error rate and latency', async () => {
    const s = server({
      'GET /api/integrations/health': () => ({
        list: [
          {
            agency: 'registry',
            title: 'Registry Office',
            status: 'sandbox',
            breaker: 'open',
            calls: 8,
            failures: 1,
            errorRate: 0.125,
            p50Ms: 40,
            p95Ms: 1200,
            lastError: 'timed out',
            lastCallAt: '2026-03-05T19:30:00.000Z',
          },
        ],
      }),
    });
    renderScreen(IntegrationScreen, screenOf(healthScreen), '/admin/integrations/health', s.dataProvider);
    const tr = await shown('tr[data-agency="registry"]');
    const cell = (name: string) => tr.querySelector(`[data-cell="${name}"]`)!.textContent;
    expect(cell('breaker')).toBe('Paused');
    expect(cell('errorRate')).toBe('12.5%');
    expect(cell('p95Ms')).toBe('1 200 ms');
    expect(cell('lastCallAt')).toBe('06.03.2026 00:30');
    expect(cell('lastError')).toBe('timed out');
  });
});
