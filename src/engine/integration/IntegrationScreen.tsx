/**
 * The `integration` screen kind (docs/integrations.md): the pages of the integration platform,
 * one per `options.view` — `agencies` (the agencies the user may query), `agency` (one agency's
 * methods: a query form per method and its answer; route with `:agency`), `audit` (the call
 * audit with its filters and export) and `health` (each agency's connection, breaker and recent
 * latency), `imports` (a registry refreshed from an agency: its runs and "refresh now"; the
 * screen's `entity`). Agencies and methods are definitions the server sends (GET /api/integrations); this
 * code names none of them.
 */
import type { ScreenProps } from '../types.ts';
import { AgenciesView } from './AgenciesView.tsx';
import { AgencyView } from './AgencyView.tsx';
import { AuditView } from './AuditView.tsx';
import { HealthView } from './HealthView.tsx';
import { ImportsView } from './ImportsView.tsx';

const VIEWS = {
  agencies: AgenciesView,
  agency: AgencyView,
  audit: AuditView,
  health: HealthView,
  imports: ImportsView,
} as const;

/** The page `screen.options.view` names (the agencies when it names none the kind knows). */
export default function IntegrationScreen({ screen }: ScreenProps) {
  const view = screen.options?.view as keyof typeof VIEWS | undefined;
  const View = (view && VIEWS[view]) || AgenciesView;
  return <View screen={screen} />;
}
