// @vitest-environment happy-dom
/**
 * The applicant's plain-words status panel: the state's sentence with the record's dates
 * interpolated (the day the status was entered, the deadline), the deadline line, and the
 * steps with their dates and what the applicant is told (a reason) — never a staff name.
 */
import { describe, expect, it } from 'vitest';
import { configure, waitFor } from '@testing-library/react';
import type { JSONSchema7 } from 'json-schema';
import { renderWithProviders } from '../form/testing.tsx';
import type { MachineDefinition } from '../../generated/meta.ts';
import type { StoredRecord } from '../../client/data-provider.ts';
import type { HistoryEntry } from '../../shared/workflow.ts';
import { PlainStatusPanel, plainValues } from './PlainStatus.tsx';

configure({ asyncUtilTimeout: 20_000 });

const machine = {
  id: 'gizmo',
  version: 1,
  description: 'test',
  initial: 'OPEN',
  states: {
    OPEN: { description: 'open', on: { START: { target: 'WORKING', description: 'start' } } },
    WORKING: {
      description: 'working',
      on: {
        SEND_BACK: {
          target: 'BACK',
          description: 'back',
          payload: {
            type: 'object',
            additionalProperties: false,
            required: ['reason'],
            properties: { reason: { type: 'string', title: 'workflow.payload.reason' } },
          },
        },
        LATE: { target: 'LATE', description: 'late' },
      },
      deadline: { field: '/dueDate', event: 'LATE', description: 'due' },
    },
    BACK: { description: 'back' },
    LATE: { description: 'late' },
  },
} as unknown as MachineDefinition;
const schema: JSONSchema7 = {
  type: 'object',
  properties: {
    dueDate: { type: 'string', format: 'date', title: 'entity.gizmo.field.dueDate' },
    topic: { type: 'string' },
  },
};
const TEXTS = {
  workflow: {
    gizmo: {
      states: { OPEN: 'Open', WORKING: 'Working', BACK: 'Sent back', LATE: 'Late' },
      plain: {
        OPEN: 'Received on {{since}}, waiting.',
        WORKING: 'Being worked on since {{since}} — due by {{deadline}} ({{topic}}).',
        BACK: 'Sent back to you on {{since}}.',
      },
    },
    payload: { reason: 'Reason' },
    ui: { plainTitle: 'Where it stands', plainSteps: 'Steps so far', plainFiled: 'Filed' },
  },
  entity: { gizmo: { field: { dueDate: 'Due date' } } },
};
const record = (status: string, extra: Record<string, unknown> = {}): StoredRecord => ({
  id: 5,
  version: 3,
  status,
  createdAt: '2026-05-02T20:00:00.000Z',
  updatedAt: '2026-05-04T10:00:00.000Z',
  topic: 'Prices',
  ...extra,
});
const step = (
  id: number,
  event: string,
  from: string,
  to: string,
  at: string,
  payload: Record<string, unknown> = {},
): HistoryEntry => ({
  id,
  at,
  actor: null,
  actorName: null,
  event,
  from,
  to,
  payload,
  comment: null,
  machine: 'gizmo',
  machineVersion: 1,
});

async function render(rec: StoredRecord, history: HistoryEntry[]) {
  const { i18n } = renderWithProviders(
    <PlainStatusPanel machine={machine} record={rec} schema={schema} history={history} />,
  );
  i18n.addResourceBundle('en', 'translation', TEXTS, true, true);
  await i18n.changeLanguage('en');
  await waitFor(() =>
    expect(document.querySelector('[data-region="plain-sentence"]')!.textContent).not.toMatch(/^workflow\./),
  );
  await waitFor(() => expect(document.querySelector('h2')!.textContent).toBe('Where it stands'));
}

describe('plain-words status', () => {
  it('says when a new record was received (in Tashkent days) and that it waits', async () => {
    await render(record('OPEN'), []);
    // Created 20:00 UTC on 2 May = 01:00 on 3 May in Tashkent.
    expect(document.querySelector('[data-region="plain-sentence"]')!.textContent).toBe(
      'Received on 03.05.2026, waiting.',
    );
    expect(document.querySelector('[data-region="plain-deadline"]')).toBeNull();
    expect([...document.querySelectorAll('[data-region="plain-steps"] li')].map((li) => li.textContent)).toEqual([
      '03.05.2026 — Filed',
    ]);
  });

  it('interpolates the day the status was entered, the deadline and record fields, and shows the deadline', async () => {
    await render(record('WORKING', { dueDate: '2026-05-18' }), [
      step(1, 'START', 'OPEN', 'WORKING', '2026-05-04T05:00:00.000Z'),
    ]);
    expect(document.querySelector('[data-region="plain-sentence"]')!.textContent).toBe(
      'Being worked on since 04.05.2026 — due by 18.05.2026 (Prices).',
    );
    expect(document.querySelector('[data-region="plain-deadline"]')!.textContent).toBe('Due date: 18.05.2026');
    expect(document.querySelector('[data-region="plain-status"]')!.getAttribute('data-status')).toBe('WORKING');
  });

  it('lists the steps with their dates and the reason given, and no one’s name', async () => {
    await render(record('BACK', { dueDate: '2026-05-18' }), [
      step(1, 'START', 'OPEN', 'WORKING', '2026-05-04T05:00:00.000Z'),
      step(2, 'SEND_BACK', 'WORKING', 'BACK', '2026-05-06T05:00:00.000Z', {
        reason: 'Not our competence',
        executorId: 12,
      }),
    ]);
    expect(document.querySelector('[data-region="plain-sentence"]')!.textContent).toBe(
      'Sent back to you on 06.05.2026.',
    );
    const steps = [...document.querySelectorAll('[data-region="plain-steps"] li')].map((li) => li.textContent);
    expect(steps).toEqual([
      '03.05.2026 — Filed',
      '04.05.2026 — Working',
      '06.05.2026 — Sent backReason: Not our competence',
    ]);
    // A past deadline stays visible after the status left it.
    expect(document.querySelector('[data-region="plain-deadline"]')!.textContent).toBe('Due date: 18.05.2026');
  });

  it('falls back to the status label when a state has no sentence', async () => {
    await render(record('LATE'), []);
    expect(document.querySelector('[data-region="plain-sentence"]')!.textContent).toBe('Late');
    expect(plainValues(machine, record('LATE'), schema, []).deadline).toBeUndefined();
  });
});
