// @vitest-environment happy-dom
/**
 * An agency's page (screen kind `integration`, view `agency`, the real screen definition) under
 * the real DataProvider against a scripted server: the query form from a method's parameter
 * schema, the call it sends and the answer as facts or a table, "nothing found"; a
 * personal-data method's purpose (asked by the form, and the server's field errors at their
 * fields); refusals in words; an agency not connected; one the user may not query.
 */
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { HttpError } from '../../client/http.ts';
import { renderScreen } from '../screens-testing.tsx';
import agencyScreen from '../../../screens/integration-agency.json';
import IntegrationScreen from './IntegrationScreen.tsx';
import { field, found, input, run, screenOf, server, shown } from './integration-testing.ts';

vi.mock('../../definitions/client.ts', async () => {
  const mock = (await import('../test-entity.ts')).definitionsClientMock;
  const own = await Promise.all(
    ['integrations', 'integration-agency', 'integration-audit', 'integration-health'].map(
      async (id) => (await import(`../../../screens/${id}.json`)).default,
    ),
  );
  return { ...mock, screens: [...mock.screens, ...own] };
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
