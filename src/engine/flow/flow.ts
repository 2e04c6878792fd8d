import type { FlowEndpoint, FlowStep } from '../../generated/meta.ts';

/** What a flow has gathered: every step's values and the reply fields it kept. */
export type FlowContext = Record<string, unknown>;

/** Whether a step applies: every `when` value equals the context's (compared as text). */
export const stepApplies = (step: FlowStep, context: FlowContext): boolean =>
  Object.entries(step.when ?? {}).every(([name, value]) => String(context[name]) === String(value));

/** The index of the next step after `from` that applies, or -1 when none is left. */
export function nextStepIndex(steps: readonly FlowStep[], from: number, context: FlowContext): number {
  for (let i = from + 1; i < steps.length; i++) if (stepApplies(steps[i]!, context)) return i;
  return -1;
}

/** The index of the step before `from` that applies, or -1. */
export function previousStepIndex(steps: readonly FlowStep[], from: number, context: FlowContext): number {
  for (let i = from - 1; i >= 0; i--) if (stepApplies(steps[i]!, context)) return i;
  return -1;
}

const pick = (names: readonly string[] | undefined, context: FlowContext): Record<string, unknown> =>
  Object.fromEntries(
    (names ?? []).filter((n) => context[n] !== undefined && context[n] !== '').map((n) => [n, context[n]]),
  );

/**
 * The request an endpoint makes with the context: `{name}` in the path filled in, the named
 * values as query parameters and as body fields.
 * @example requestOf({ method: 'POST', path: '/api/x/{kind}', query: ['uid'] }, { kind: 'a', uid: 'u' }) // → path /api/x/a, query {uid: 'u'}
 */
export function requestOf(
  endpoint: FlowEndpoint,
  context: FlowContext,
): { method: 'GET' | 'POST'; path: string; query: Record<string, unknown>; body: Record<string, unknown> } {
  const path = endpoint.path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) =>
    encodeURIComponent(String(context[name] ?? '')),
  );
  return { method: endpoint.method, path, query: pick(endpoint.query, context), body: pick(endpoint.body, context) };
}

/** The step's own values out of the context (what its form starts with). */
export function stepValues(step: FlowStep, context: FlowContext): Record<string, unknown> {
  const names = Object.keys((step.schema as { properties?: Record<string, unknown> }).properties ?? {});
  return pick(names, context);
}
