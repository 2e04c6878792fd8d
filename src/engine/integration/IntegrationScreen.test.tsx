// @vitest-environment happy-dom
/**
 * The integration pages (screen kind `integration`, the real screens/*.json) under the real
 * DataProvider against a scripted server: the agencies with their status, breaker and the
 * sandbox label; an agency's query form from a method's parameter schema, the call it sends and
 * the answer as facts or a table, "nothing found"; a personal-data method's purpose (asked by
 * the form, and the server's field errors at their fields); refusals in words; an agency not
 * connected; the audit's rows, filters and export; the health table.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor, within } from '@testing-library/react';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { createDataProvider, type IntegrationCatalogue } from '../../client/data-provider.ts';
import { HttpError } from '../../client/http.ts';
import { renderScreen } from '../screens-testing.tsx';
import agenciesScreen from '../../../screens/integrations.json';
import agencyScreen from '../../../screens/integration-agency.json';
import auditScreen from '../../../screens/integration-audit.json';
import healthScreen from '../../../screens/integration-health.json';
import IntegrationScreen from './IntegrationScreen.tsx';

vi.mock('../../definitions/client.ts', async () => {
  const mock = (await import('../test-entity.ts')).definitionsClientMock;
  const own = await Promise.all(
    ['integrations', 'integration-agency', 'integration-audit', 'integration-health'].map(
      async (id) => (await import(`../../../screens/${id}.json`)).default,
    ),
  );
  return { ...mock, screens: [...mock.screens, ...own] };
});

const screenOf = (json: unknown) => json as ScreenDefinition;

const catalogue: IntegrationCatalogue = {
  sandbox: true,
  agencies: [
    {
      id: 'registry',
      title: 'Registry Office',
      status: 'sandbox',
      breaker: 'closed',
      methods: [
        {
          id: 'company',
          title: 'Company card',
          personalData: false,
          params: {
            type: 'object',
            required: ['inn'],
            additionalProperties: false,
            properties: { inn: { type: 'string', format: 'stir', title: 'Tax ID' } },
          },
          result: {
            view: 'record',
            schema: {
              type: 'object',
              properties: {
                name: { type: 'string', title: 'Name' },
                registered: { type: 'string', format: 'date', title: 'Registered' },
                address: { type: 'object', title: 'Address', properties: { city: { type: 'string', title: 'City' } } },
              },
            },
          },
        },
        {
          id: 'person',
          title: 'Person check',
          personalData: true,
          params: {
            type: 'object',
            required: ['pinfl'],
            properties: { pinfl: { type: 'string', format: 'pinfl', title: 'PINFL' } },
          },
          result: {
            view: 'record',
            schema: { type: 'object', properties: { fullName: { type: 'string', title: 'Full name' } } },
          },
        },
        {
          id: 'prices',
          title: 'Prices',
          personalData: false,
          params: { type: 'object', properties: { product: { type: 'string', title: 'Product' } } },
          result: {
            view: 'table',
            rows: '/items',
            schema: {
              type: 'object',
              properties: {
                onDate: { type: 'string', format: 'date', title: 'On date' },
                items: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      region: { type: 'string', title: 'Region' },
                      price: { type: 'number', title: 'Price' },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
    {
      id: 'offline',
      title: 'Offline Agency',
      status: 'notConnected',
      breaker: 'closed',
      methods: [
        {
          id: 'lookup',
          title: 'Lookup',
          personalData: false,
          params: { type: 'object', required: ['code'], properties: { code: { type: 'string', title: 'Code' } } },
          result: { view: 'record', schema: { type: 'object', properties: {} } },
        },
      ],
    },
  ],
};

type Options = { body?: Record<string, unknown>; query?: Record<string, unknown> };
type Answer = (options: Options) => unknown;

/** The real DataProvider over a scripted server; `calls` holds what each method call sent. */
function server(answers: Record<string, Answer> = {}) {
  const request = vi.fn(async (method: string, path: string, options: Options = {}) => {
    if (method === 'GET' && path === '/api/integrations') return catalogue;
    const answer = answers[`${method} ${path}`];
    if (!answer) throw new Error(`unexpected ${method} ${path}`);
    return answer(options);
  });
  const dataProvider = createDataProvider({
    request: request as never,
    url: (path, query) => `${path}?${new URLSearchParams(query as Record<string, string>)}`,
    download: () => Promise.reject(new Error('no downloads here')),
  });
  const sent = (path: string) =>
    request.mock.calls.filter(([m, p]) => m === 'POST' && p === path).map(([, , o]) => (o as Options).body);
  return { request, dataProvider, sent };
}

/** The element of `selector` once it shows. */
const shown = (selector: string) =>
  waitFor(() => {
    const el = document.querySelector<HTMLElement>(selector);
    if (!el) throw new Error(`${selector} is not shown`);
    return el;
  });
const field = (pointer: string) => document.querySelector<HTMLElement>(`[data-field="${pointer}"]`)!;
const input = (pointer: string) => field(pointer).querySelector<HTMLInputElement>('input, textarea')!;
const run = () => document.querySelector<HTMLButtonElement>('[data-action="run-query"]')!;
const found = {
  found: true,
  cached: false,
  sandbox: true,
  durationMs: 12,
  callId: 1,
};

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

describe('an agency page', () => {
  it('runs a method from its form and shows the answer as labelled facts; nothing found says so', async () => {
    let reply: unknown = {
      ...found,
      result: { name: 'TEXNO SAVDO', registered: '2015-03-12', address: { city: 'Toshkent' } },
    };
    const s = server({ 'POST /api/integrations/registry/company': () => reply });
    const { user } = renderScreen(
      IntegrationScreen,
      screenOf(agencyScreen),
      '/admin/integrations/registry',
      s.dataProvider,
    );
    await waitFor(() => expect(field('/params/inn')).toBeTruthy());
    expect(document.querySelector('h1')!.textContent).toBe('Registry Office');
    expect(document.querySelector('[data-tab="company"]')!.getAttribute('aria-selected')).toBe('true');
    // No purpose for a method without personal data.
    expect(field('/purpose')).toBeNull();
    await user.type(input('/params/inn'), '301234567');
    await user.click(run());
    const result = await shown('[data-region="result"] [data-view="record"]');
    expect(s.sent('/api/integrations/registry/company')).toEqual([{ params: { inn: '301234567' } }]);
    expect(result.querySelector('[data-field="/name"] dd')!.textContent).toBe('TEXNO SAVDO');
    expect(result.querySelector('[data-field="/registered"] dt')!.textContent).toBe('Registered');
    expect(result.querySelector('[data-field="/registered"] dd')!.textContent).toBe('12.03.2015');
    expect(result.querySelector('[data-field="/address/city"] dt')!.textContent).toBe('Address › City');
    const meta = document.querySelector<HTMLElement>('[data-state="reply-meta"]')!;
    expect(meta.textContent).toContain('Sandbox answer');
    expect(meta.textContent).toContain('12 ms');
    expect(meta.dataset.cached).toBe('false');

    reply = { ...found, found: false, result: null, cached: true };
    await user.click(run());
    await waitFor(() =>
      expect(document.querySelector('[data-state="not-found"]')!.textContent).toMatch(/Nothing found/),
    );
    expect(document.querySelector<HTMLElement>('[data-state="reply-meta"]')!.textContent).toContain('From cache');
  });

  it('asks the purpose of a personal-data method, sends it, and puts the server’s field errors at their fields', async () => {
    const s = server({
      'POST /api/integrations/registry/person': ({ body }) => {
        if (body?.purpose === 'For appeal 14-05/123')
          throw new HttpError(
            400,
            {
              message: 'Invalid input',
              fieldErrors: { '/params/pinfl': 'Not a real PINFL', '/purpose': 'Name the case' },
            },
            'bad',
          );
        return { ...found, result: { fullName: 'Karimov Aziz' } };
      },
    });
    const { user, router } = renderScreen(
      IntegrationScreen,
      screenOf(agencyScreen),
      '/admin/integrations/registry',
      s.dataProvider,
    );
    await waitFor(() => expect(document.querySelector('[data-tab="person"]')).toBeTruthy());
    await user.click(document.querySelector<HTMLElement>('[data-tab="person"]')!);
    await waitFor(() => expect(field('/params/pinfl')).toBeTruthy());
    expect(router.state.location.search).toBe('?method=person');
    expect(document.querySelector('[data-state="personal-data"]')!.textContent).toMatch(/recorded/);
    await user.type(input('/params/pinfl'), '31503851230012');
    // Without a purpose nothing is sent: the field and the summary say why.
    await user.click(run());
    await waitFor(() => expect(field('/purpose').textContent).toMatch(/Mandatory field/));
    expect((await shown('[data-region="error-summary"]')).querySelector('[data-error-link="/purpose"]')).toBeTruthy();
    await user.type(input('/purpose'), 'check');
    await user.click(run());
    await waitFor(() => expect(field('/purpose').textContent).toMatch(/10/));
    expect(s.sent('/api/integrations/registry/person')).toEqual([]);

    await user.clear(input('/purpose'));
    await user.type(input('/purpose'), 'For appeal 14-05/123');
    await user.click(run());
    await waitFor(() => expect(field('/params/pinfl').textContent).toContain('Not a real PINFL'));
    expect(field('/purpose').textContent).toContain('Name the case');
    const summary = await shown('[data-region="error-summary"]');
    expect([...summary.querySelectorAll('[data-error-link]')].map((a) => a.getAttribute('data-error-link'))).toEqual([
      '/params/pinfl',
      '/purpose',
    ]);
    expect(s.sent('/api/integrations/registry/person')).toEqual([
      { params: { pinfl: '31503851230012' }, purpose: 'For appeal 14-05/123' },
    ]);
    // A field refusal is not a message under the form.
    expect(document.querySelector('[data-state="call-error"]')).toBeNull();

    await user.clear(input('/purpose'));
    await user.type(input('/purpose'), '  Appeal 14-05/124, applicant check  ');
    await user.click(run());
    await waitFor(() =>
      expect(document.querySelector('[data-region="result"] [data-field="/fullName"] dd')!.textContent).toBe(
        'Karimov Aziz',
      ),
    );
    expect(s.sent('/api/integrations/registry/person').at(-1)).toEqual({
      params: { pinfl: '31503851230012' },
      purpose: 'Appeal 14-05/124, applicant check',
    });
  });

  it('says in words why a call was refused: no right, too many calls, the agency not answering', async () => {
    const failures = [
      new HttpError(403, { message: 'You have no permission to do this action' }, '403'),
      new HttpError(429, { message: 'Too many requests' }, '429'),
      new HttpError(503, { message: 'Registry Office is not answering; queries are paused' }, '503'),
    ];
    const s = server({
      'POST /api/integrations/registry/company': () => {
        throw failures.shift();
      },
    });
    const { user } = renderScreen(
      IntegrationScreen,
      screenOf(agencyScreen),
      '/admin/integrations/registry',
      s.dataProvider,
    );
    await waitFor(() => expect(field('/params/inn')).toBeTruthy());
    await user.type(input('/params/inn'), '301234567');
    const message = () => document.querySelector<HTMLElement>('[data-state="call-error"]');
    await user.click(run());
    await waitFor(() => expect(message()?.dataset.status).toBe('403'));
    expect(message()!.textContent).toBe('Your roles do not allow this query.');
    await user.click(run());
    await waitFor(() => expect(message()?.dataset.status).toBe('429'));
    expect(message()!.textContent).toMatch(/Too many queries in a minute/);
    await user.click(run());
    await waitFor(() => expect(message()?.dataset.status).toBe('503'));
    expect(message()!.textContent).toBe('Registry Office is not answering; queries are paused');
  });

  it('shows a table answer: the rows under the item titles, the other fields above', async () => {
    const s = server({
      'POST /api/integrations/registry/prices': () => ({
        ...found,
        result: {
          onDate: '2026-01-05',
          items: [
            { region: 'Andijan', price: 12500.5 },
            { region: 'Namangan', price: 9000 },
          ],
        },
      }),
    });
    const { user } = renderScreen(
      IntegrationScreen,
      screenOf(agencyScreen),
      '/admin/integrations/registry?method=prices',
      s.dataProvider,
    );
    await waitFor(() => expect(field('/params/product')).toBeTruthy());
    await user.click(run());
    const table = await shown('[data-view="table"] table');
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Region', 'Price']);
    expect(table.querySelector('[data-row="0"] [data-cell="/price"]')!.textContent).toBe('12 500.5');
    expect(table.querySelector('[data-row="1"] [data-cell="/region"]')!.textContent).toBe('Namangan');
    expect(document.querySelector('[data-view="table"] [data-field="/onDate"] dd')!.textContent).toBe('05.01.2026');
    expect(document.querySelector('[data-state="row-count"]')!.textContent).toBe('Rows found: 2');
    expect(s.sent('/api/integrations/registry/prices')).toEqual([{ params: {} }]);
  });

  it('keeps the form of an agency that is not connected read-only, with the reason', async () => {
    const s = server();
    renderScreen(IntegrationScreen, screenOf(agencyScreen), '/admin/integrations/offline', s.dataProvider);
    await waitFor(() => expect(field('/params/code')).toBeTruthy());
    expect(document.querySelector('[data-state="not-connected"]')!.textContent).toMatch(/not connected/);
    expect(run().disabled).toBe(true);
    expect(input('/params/code').readOnly || input('/params/code').disabled).toBe(true);
  });

  it('says so when the agency is not one the user may query', async () => {
    renderScreen(IntegrationScreen, screenOf(agencyScreen), '/admin/integrations/elsewhere', server().dataProvider);
    await waitFor(() => expect(document.querySelector('[data-state="unknown-agency"]')).toBeTruthy());
    expect(document.querySelector('[data-action="back"]')!.getAttribute('href')).toBe('/admin/integrations');
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
