/**
 * The byte budgets of the web app's routes: gzip JavaScript a route loads before it runs
 * (scripts/bundle/route-sizes.ts measures it). Byte sizes are deterministic — the same
 * sources give the same build — so unlike timings they can fail CI: `npm run budgets`
 * (scripts/check-budgets.ts, after the build in scripts/pretest.ts) fails when a route is over.
 *
 * The figures are issue #22's targets, set for a citizen on a phone over a slow mobile link:
 * the home page's first visit is the lightest, the forms a citizen files an appeal with next,
 * staff's list and record pages (ag-grid, the record's tabs) may weigh more. A route not named
 * here (lookup, flow, dashboard, profile) is measured and printed but has no budget.
 */
import { kb, type RouteSize } from './route-sizes.ts';

const KB = 1024;

/** Route (scripts/bundle/route-sizes.ts names) → most gzip bytes of JavaScript it may load. */
export const BUDGETS: Readonly<Record<string, number>> = {
  // A first visit to `/`: the entry, the app's second graph, the home page's kind, the default locale.
  'first-visit': 150 * KB,
  // A citizen filing an appeal on a phone: the form, the wizard and the sign-in routes.
  form: 250 * KB,
  wizard: 250 * KB,
  signin: 250 * KB,
  // Staff's record lists (ag-grid) and a record's page (which loads no grid).
  list: 300 * KB,
  detail: 300 * KB,
};

/**
 * What each budgeted route may load until it meets its budget — the gate `npm run budgets`
 * holds CI to: the route's size on 2026-11-27 plus 2%, so that no change makes a route heavier
 * unnoticed. The budgets above stay the targets (`npm run budgets -- --targets` checks them):
 * the form, wizard, sign-in and list budgets are below what the mandated libraries alone
 * weigh (`npm run bench:bundle-floor`), the first visit's leaves 12.8 KB for the portal's own
 * code. Lower a ceiling when its route gets lighter; raise one only with the reason in the commit.
 */
export const CEILINGS: Readonly<Record<string, number>> = {
  // 267.8 KB on 2026-11-27
  'first-visit': 274 * KB,
  // 493.6, 493.1 and 490.6 KB (523.9, 523.4 and 520.9 KB before rjsf's markdown parser loaded when shown)
  form: 504 * KB,
  wizard: 503 * KB,
  signin: 501 * KB,
  // 624.0 and 423.8 KB
  list: 637 * KB,
  detail: 433 * KB,
};

/** A route over its budget. */
export interface BudgetExcess {
  route: string;
  js: number;
  budget: number;
  /** Bytes over the budget. */
  excess: number;
}

/** The routes whose JavaScript exceeds their budget (routes without one are never over). */
export function overBudget(
  sizes: readonly RouteSize[],
  budgets: Readonly<Record<string, number>> = BUDGETS,
): BudgetExcess[] {
  return sizes.flatMap((s) => {
    const budget = budgets[s.route];
    return budget !== undefined && s.js > budget ? [{ route: s.route, js: s.js, budget, excess: s.js - budget }] : [];
  });
}

/** A budgeted route the build does not have: the check would otherwise pass by measuring nothing. */
export function unmeasured(sizes: readonly RouteSize[], budgets: Readonly<Record<string, number>> = BUDGETS): string[] {
  return Object.keys(budgets).filter((route) => !sizes.some((s) => s.route === route));
}

/** The line a failed check prints for a route over its budget (or ceiling): the route, its size, the excess. */
export function describeExcess(o: BudgetExcess, limit: 'budget' | 'ceiling' = 'budget'): string {
  return `${o.route} loads ${kb(o.js)} of gzip JavaScript, ${kb(o.excess)} over its ${limit} of ${kb(o.budget)}`;
}
