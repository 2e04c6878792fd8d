// @vitest-environment happy-dom
/**
 * The transition bar and timeline of a record page, against a test double of the
 * DataProvider: buttons come from the events the server offers, an event without input is
 * confirmed and sent with the version read, one with input is sent only with a valid payload.
 */
import { describe, expect, it, vi } from 'vitest';
import { configure, screen as dom, waitFor, within } from '@testing-library/react';
import { confirmPrompt, createFakeDataProvider, renderWithProviders } from '../form/testing.tsx';
import type { StoredRecord, TransitionInput, WorkflowEvent } from '../../client/data-provider.ts';
import { TransitionBar, TransitionTimeline } from './TransitionBar.tsx';

// Fluent's dialogs can take seconds to appear on a loaded machine (shared cores, parallel runs).
configure({ asyncUtilTimeout: 20_000 });

const TEXTS = {
  workflow: {
    gizmo: {
      states: { OPEN: 'Open', WORKING: 'Working', DONE: 'Done' },
      events: { START: 'Start', HAND_OVER: 'Hand over', CLOSE: 'Close' },
    },
    payload: { executorId: 'Executor' },
  },
};

const record: StoredRecord = {
  id: 5,
  version: 2,
  status: 'OPEN',
  createdAt: '2026-01-02T03:04:05.000000Z',
  updatedAt: '2026-01-02T03:04:05.000000Z',
};
const handOver: WorkflowEvent = {
  type: 'HAND_OVER',
  target: 'WORKING',
  description: 'Give it to someone',
  payload: {
    type: 'object',
    additionalProperties: false,
    required: ['executorId'],
    properties: { executorId: { type: 'integer', minimum: 1, title: 'workflow.payload.executorId' } },
  },
};

/** The workflow methods of record 5 of `gizmo` (the requests they send: client/data-provider.test.ts). */
function fakeServer() {
  const sent: TransitionInput[] = [];
  const only = (entity: string, id: number) => {
    if (entity !== 'gizmo' || id !== 5) throw new Error(`unexpected ${entity} ${id}`);
  };
  const dp = createFakeDataProvider({
    getEvents: vi.fn(async (entity: string, id: number) => {
      only(entity, id);
      return [{ type: 'START', target: 'WORKING', description: 'Begin work' }, handOver];
    }),
    getTransitions: vi.fn(async (entity: string, id: number) => {
      only(entity, id);
      return [
        {
          id: 1,
          at: '2026-01-02T03:04:05.000Z',
          actor: '9',
          actorName: 'Karimov Aziz',
          event: 'START',
          from: 'OPEN',
          to: 'WORKING',
          payload: {},
          comment: 'on it',
          machine: 'gizmo',
          machineVersion: 1,
        },
      ];
    }),
    transition: vi.fn(async (entity: string, id: number, input: TransitionInput) => {
      only(entity, id);
      sent.push(input);
      return { ...record, version: 3, status: 'WORKING' };
    }),
  });
  return { sent, dp };
}

describe('transition bar', () => {
  it('shows the status and a button per offered event; sends a confirmed event with the version read', async () => {
    const { sent, dp } = fakeServer();
    const { user, i18n } = renderWithProviders(<TransitionBar entity="gizmo" machine="gizmo" record={record} />, {
      dataProvider: dp,
    });
    i18n.addResourceBundle('en', 'translation', TEXTS, true, true);
    await waitFor(() => expect(document.querySelector('[data-event="START"]')).toBeTruthy());
    expect(document.querySelector('[data-status="OPEN"]')!.textContent).toBe('Open');
    expect(document.querySelector('[data-event="START"]')!.textContent).toBe('Start');
    expect(document.querySelector('[data-event="CLOSE"]')).toBeNull();

    await user.click(document.querySelector<HTMLElement>('[data-event="START"]')!);
    await user.click(within(await confirmPrompt()).getByText('Cancel'));
    await waitFor(() => expect(document.querySelector('[data-dialog="confirm"]')).toBeNull());
    expect(sent).toEqual([]);
    await user.click(document.querySelector<HTMLElement>('[data-event="START"]')!);
    // The prompt names the action and the status it leads to, and its button is the action.
    const prompt = await confirmPrompt();
    expect(prompt.textContent).toContain('Start?');
    expect(prompt.textContent).toContain('will get the status “Working”');
    expect(prompt.textContent).not.toContain('Do you want to perform this action');
    await user.click(within(prompt).getByText('Start'));
    await waitFor(() => expect(sent).toEqual([{ event: 'START', version: 2 }]));
  });

  it('asks for the payload of an event that needs one and sends it only when valid', async () => {
    const { sent, dp } = fakeServer();
    const { user, i18n } = renderWithProviders(<TransitionBar entity="gizmo" machine="gizmo" record={record} />, {
      dataProvider: dp,
    });
    i18n.addResourceBundle('en', 'translation', TEXTS, true, true);
    await waitFor(() => expect(document.querySelector('[data-event="HAND_OVER"]')).toBeTruthy());
    await user.click(document.querySelector<HTMLElement>('[data-event="HAND_OVER"]')!);
    const form = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-dialog="transition"]');
      if (!el) throw new Error('no payload dialog');
      return el;
    });
    // The form's chunk loads when the dialog first opens (LazyEntityForm): a spinner, then the
    // fields, and the comment with them, not before them (typing there first went to the wrong box).
    expect(
      form.querySelector('[data-field="/comment"]') === null || form.querySelector('[data-field="/executorId"]'),
    ).toBeTruthy();
    await waitFor(() => expect(form.querySelector('[data-field="/comment"]')).toBeTruthy());
    expect(form.querySelector('[data-field="/executorId"] input')).toBeTruthy();
    await user.click(within(form).getByText('Perform'));
    await waitFor(() =>
      expect(form.querySelector('[data-field="/executorId"]')!.textContent).toContain('Mandatory field'),
    );
    expect(sent).toEqual([]);
    // Every field of the dialog has a visible label, the comment too (not only a placeholder).
    const comment = form.querySelector<HTMLTextAreaElement>('[data-field="/comment"]')!;
    expect(form.querySelector(`label[for="${comment.id}"]`)?.textContent).toContain('Comment');
    expect(
      form.querySelector(`label[for="${form.querySelector('[data-field="/executorId"] input')!.id}"]`)?.textContent,
    ).toContain('Executor');
    // The send button is the form's submit button: Enter in a field submits.
    const send = form.querySelector<HTMLButtonElement>('[data-action="send"]')!;
    expect(send.type).toBe('submit');
    expect(send.getAttribute('form')).toBe(form.querySelector('form')!.id);
    await user.type(form.querySelector<HTMLInputElement>('[data-field="/executorId"] input')!, '12');
    await user.type(comment, 'over to you');
    await user.click(within(form).getByText('Perform'));
    await waitFor(() =>
      expect(sent).toEqual([{ event: 'HAND_OVER', version: 2, payload: { executorId: 12 }, comment: 'over to you' }]),
    );
  });

  it('says which stored fields block every event, by label, when the server names them', async () => {
    const { dp } = fakeServer();
    dp.getEvents = vi.fn(async () =>
      Object.assign([] as WorkflowEvent[], {
        problems: [{ pointer: '/ownerPhone', label: "Owner's phone", message: 'Mandatory field' }],
      }),
    );
    const { i18n } = renderWithProviders(<TransitionBar entity="gizmo" machine="gizmo" record={record} />, {
      dataProvider: dp,
    });
    i18n.addResourceBundle('en', 'translation', TEXTS, true, true);
    const note = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-region="stored-problems"]');
      if (!el) throw new Error('no note');
      return el;
    });
    expect(note.textContent).toContain("Owner's phone (Mandatory field)");
    expect(document.querySelector('[data-region="no-events"]')).toBeTruthy();
  });

  it('shows the status history as a timeline', async () => {
    const { dp } = fakeServer();
    const { i18n } = renderWithProviders(<TransitionTimeline entity="gizmo" machine="gizmo" id={5} />, {
      dataProvider: dp,
    });
    i18n.addResourceBundle('en', 'translation', TEXTS, true, true);
    const step = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-transition="START"]');
      if (!el) throw new Error('no timeline');
      return el;
    });
    expect(step.textContent).toContain('Start: Open → Working');
    expect(step.textContent).toContain('on it');
    expect(step.textContent).toContain('by Karimov Aziz');
  });
});
