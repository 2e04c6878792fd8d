// @vitest-environment happy-dom
/**
 * The flow screen kind from a definition of test steps, against a scripted server under the
 * real DataProvider: steps chosen by `when`, the endpoint called with the context (path template,
 * query and body, kept reply fields), server field errors and live checks on the fields, a
 * further action, and the end (a session stored, or a redirect).
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen as dom, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import type { ScreenDefinition } from '../../generated/meta.ts';
import type { DataProvider } from '../../client/data-provider.ts';
import { HttpError } from '../../client/http.ts';
import { getSetting } from '../../client/settings.ts';
import { createScriptedDataProvider, createTestI18n, Providers } from '../form/testing.tsx';
import FlowScreen from './FlowScreen.tsx';

const TEXTS = {
  test: {
    flow: {
      title: 'Join',
      kind: 'Kind',
      person: 'Person',
      company: 'Company',
      who: 'Who',
      id: 'Personal number',
      tin: 'Company number',
      name: 'Name',
      code: 'Code',
      finish: 'Finish',
      resend: 'Resend',
      sent: 'Sent!',
      done: 'All done',
      stepOne: 'One',
      stepTwo: 'Two',
      stepThree: 'Three',
    },
  },
};

const flow = (finish: Record<string, unknown>) =>
  ({
    id: 'test-flow',
    route: '/join',
    kind: 'flow',
    titleKey: 'test.flow.title',
    permission: 'public',
    options: {
      steps: [
        {
          id: 'kind',
          titleKey: 'test.flow.stepOne',
          schema: {
            type: 'object',
            required: ['who'],
            properties: {
              who: {
                type: 'string',
                title: 'test.flow.who',
                oneOf: [
                  { const: 'p', title: 'test.flow.person' },
                  { const: 'c', title: 'test.flow.company' },
                ],
                default: 'p',
              },
            },
          },
          uiSchema: { who: { 'ui:widget': 'radio' } },
        },
        {
          id: 'person',
          titleKey: 'test.flow.stepTwo',
          when: { who: 'p' },
          schema: {
            type: 'object',
            required: ['pid'],
            properties: { pid: { type: 'string', title: 'test.flow.id', pattern: '^[0-9]{3}$' } },
          },
          endpoint: { method: 'GET', path: '/api/test/start', query: ['who', 'pid'] },
          keep: ['uid', 'via'],
          doneKey: 'test.flow.sent',
        },
        {
          id: 'company',
          titleKey: 'test.flow.stepTwo',
          when: { who: 'c' },
          schema: {
            type: 'object',
            required: ['tin'],
            properties: { tin: { type: 'string', title: 'test.flow.tin' } },
          },
          endpoint: { method: 'GET', path: '/api/test/start', query: ['who', 'tin'] },
          keep: ['uid'],
        },
        {
          id: 'confirm',
          titleKey: 'test.flow.stepThree',
          submitKey: 'test.flow.finish',
          schema: {
            type: 'object',
            required: ['name', 'code'],
            properties: {
              name: { type: 'string', title: 'test.flow.name' },
              code: { type: 'string', title: 'test.flow.code' },
            },
          },
          checks: [{ field: 'name', endpoint: { method: 'GET', path: '/api/test/free', query: ['name'] } }],
          endpoint: { method: 'POST', path: '/api/test/{via}-done', query: ['uid'], body: ['name', 'code', 'pid'] },
          actions: [
            {
              id: 'resend',
              labelKey: 'test.flow.resend',
              endpoint: { method: 'POST', path: '/api/test/resend', query: ['uid'] },
              doneKey: 'test.flow.sent',
            },
          ],
        },
      ],
      finish,
    },
  }) as unknown as ScreenDefinition;

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function renderFlow(screen: ScreenDefinition, dataProvider: DataProvider) {
  const router = createMemoryRouter(
    [
      {
        path: screen.route,
        element: (
          <>
            <FlowScreen screen={screen} />
            <Where />
          </>
        ),
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [screen.route] },
  );
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'translation', TEXTS, true, true);
  render(
    <Providers dataProvider={dataProvider} i18n={i18n}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { user: userEvent.setup() };
}

const field = (pointer: string) => document.querySelector<HTMLElement>(`[data-field="${pointer}"]`)!;
const input = (pointer: string) => field(pointer).querySelector<HTMLInputElement>('input')!;
const action = (name: string) => document.querySelector<HTMLButtonElement>(`[data-action="${name}"]`)!;
const stepId = () => document.querySelector('[data-screen="test-flow"]')!.getAttribute('data-step');

type Options = { query?: Record<string, unknown>; body?: unknown };

/** A data provider whose HTTP requests the server of the test flow answers (a GET's values in its query, a POST's in its body). */
function server(onDone: (path: string, body: Record<string, unknown>, query?: Record<string, unknown>) => unknown) {
  const call = vi.fn(async (method: string, path: string, options: Options = {}) => {
    const params = (method === 'GET' ? options.query : options.body) as Record<string, unknown>;
    const query = method === 'GET' ? undefined : options.query;
    if (path === '/api/test/start') {
      if (params.pid === '000')
        throw new HttpError(400, { message: 'Invalid input', fieldErrors: { '/pid': 'This number is taken' } }, 'bad');
      return { uid: 'u-1', via: 'sms', ignored: 'x' };
    }
    if (path === '/api/test/free')
      return params.name === 'taken' ? { available: false, message: 'Name already used' } : { available: true };
    if (path === '/api/test/resend') return { ok: true };
    return onDone(path, params, query);
  });
  return { call, dataProvider: createScriptedDataProvider(call) };
}

describe('flow screen', () => {
  it('walks the applicable steps, sending the context and keeping reply fields', async () => {
    const { call, dataProvider } = server(() => ({ ok: true }));
    const { user } = renderFlow(flow({ redirect: '/signed', doneKey: 'test.flow.done' }), dataProvider);
    await waitFor(() => expect(stepId()).toBe('kind'));
    expect(await dom.findByText('Company')).toBeTruthy();
    await user.click(action('next'));
    // "Person" is the default: the company step is skipped.
    await waitFor(() => expect(stepId()).toBe('person'));
    expect(action('back')).toBeTruthy();
    await user.type(input('/pid'), '000');
    await user.click(action('next'));
    await waitFor(() => expect(field('/pid').textContent).toContain('This number is taken'));
    expect(stepId()).toBe('person');
    await user.clear(input('/pid'));
    await user.type(input('/pid'), '123');
    await user.click(action('next'));
    await waitFor(() => expect(stepId()).toBe('confirm'));
    expect(call).toHaveBeenCalledWith('GET', '/api/test/start', { query: { who: 'p', pid: '123' } });
    expect(document.querySelector('[data-region="flow-status"]')!.textContent).toBe('Sent!');

    await user.type(input('/name'), 'taken');
    await waitFor(() => expect(field('/name').textContent).toContain('Name already used'));
    await user.clear(input('/name'));
    await user.type(input('/name'), 'free');
    await waitFor(() => expect(field('/name').textContent).not.toContain('Name already used'));

    await user.click(action('resend'));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith('POST', '/api/test/resend', { body: {}, query: { uid: 'u-1' } }),
    );

    await user.type(input('/code'), '999');
    expect(action('next').textContent).toBe('Finish');
    await user.click(action('next'));
    // The path is filled from the kept `via`; `ignored` was not kept.
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith('POST', '/api/test/sms-done', {
        body: { name: 'free', code: '999', pid: '123' },
        query: { uid: 'u-1' },
      }),
    );
    await waitFor(() => expect(dom.getByTestId('where').textContent).toBe('/signed'));
  });

  it('stores the session of the last reply and leaves', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const session = {
      token: 'tok',
      refreshToken: 'ref',
      id: 5,
      username: 'newbie',
      employeeId: null,
      employee: { firstName: 'A', lastName: 'B', middleName: null },
      isOuter: true,
      uploadPath: null,
      permissions: ['create Appeal'],
    };
    const { dataProvider } = server(() => session);
    const { user } = renderFlow(flow({ session: true, redirect: '/' }), dataProvider);
    await waitFor(() => expect(stepId()).toBe('kind'));
    await user.click(dom.getByText('Company'));
    await user.click(action('next'));
    await waitFor(() => expect(stepId()).toBe('company'));
    await user.type(input('/tin'), '123456789');
    await user.click(action('next'));
    await waitFor(() => expect(stepId()).toBe('confirm'));
    await user.type(input('/name'), 'newbie');
    await user.type(input('/code'), '111111');
    await user.click(action('next'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(getSetting('accessToken')).toBe('tok');
    expect(getSetting('userInfo')).toMatchObject({ username: 'newbie' });
    assign.mockRestore();
  });
});
