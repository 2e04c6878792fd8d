/**
 * The texts of a machine's state an applicant reads: its label (`workflow.<machine>.states.<STATE>`)
 * and its plain sentence (`workflow.<machine>.plain.<STATE>`, with {{since}} and {{deadline}}),
 * the same keys the record page's plain status reads.
 */
import { formatDate } from '../../shared/format.ts';

/** The i18n key of a state's label. */
export const stateKey = (machine: string, state: string): string => `workflow.${machine}.states.${state}`;

/** The i18n key of a state's plain sentence. */
export const plainKey = (machine: string, state: string): string => `workflow.${machine}.plain.${state}`;

/** A state's label and plain sentence, dates as DD.MM.YYYY (a dash for a deadline not set). */
export function stateTexts(
  t: (key: string, options?: Record<string, unknown>) => string,
  machine: string,
  state: string,
  dates: { since?: unknown; deadline?: unknown },
): { label: string; plain: string } {
  const label = t(stateKey(machine, state), { defaultValue: state });
  const plain = t(plainKey(machine, state), {
    since: dates.since ? formatDate(dates.since) : '',
    deadline: dates.deadline ? formatDate(dates.deadline) : '—',
    defaultValue: label,
  });
  return { label, plain };
}
