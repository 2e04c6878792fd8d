/** One finished attempt at an agency as the health screen counts it. */
interface Sample {
  at: number;
  ms: number;
  ok: boolean;
  error?: string;
}

/** The recent calls of one agency: the last {@link WINDOW} in this app instance. */
export interface AgencyStats {
  calls: number;
  failures: number;
  errorRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
  lastError: string | null;
  lastCallAt: string | null;
}

/** How many recent calls per agency the health screen summarises. */
export const WINDOW = 200;

/** The p-th percentile of sorted latencies, to a tenth of a millisecond. */
const percentile = (sorted: number[], p: number): number | null =>
  sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10
    : null;

/**
 * Recent latency and errors per agency, kept in memory (each app instance sees its own calls;
 * the audit table holds every call of every instance). Calls answered from the cache or
 * refused before reaching the agency are not samples: they say nothing of the agency.
 */
export function createStats() {
  const samples = new Map<string, Sample[]>();
  return {
    record(agency: string, sample: Sample): void {
      const list = samples.get(agency) ?? [];
      list.push(sample);
      if (list.length > WINDOW) list.splice(0, list.length - WINDOW);
      samples.set(agency, list);
    },
    of(agency: string): AgencyStats {
      const list = samples.get(agency) ?? [];
      const failures = list.filter((s) => !s.ok);
      const sorted = list.map((s) => s.ms).sort((a, b) => a - b);
      const last = list.at(-1);
      return {
        calls: list.length,
        failures: failures.length,
        errorRate: list.length ? Math.round((failures.length / list.length) * 1000) / 1000 : 0,
        p50Ms: percentile(sorted, 50),
        p95Ms: percentile(sorted, 95),
        lastError: failures.at(-1)?.error ?? null,
        lastCallAt: last ? new Date(last.at).toISOString() : null,
      };
    },
  };
}
