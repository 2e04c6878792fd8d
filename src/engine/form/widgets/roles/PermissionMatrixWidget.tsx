/**
 * A role's permissions as a matrix (`ui:widget: "permissionMatrix"` on an array of permission
 * strings "<action> <Subject>"): one row per subject — every entity's subject by its localized
 * title, and the subjects `ui:options.subjects` names (subsystems, "all") by their `labelKey` —
 * and one column per standard action (full access, read, create, change, delete), with a row's
 * further actions (its machine's events by their labels, and those the options add) in an
 * expandable part. Editing: check boxes; read-only (`readonly`/`disabled`, the record page):
 * ticks, and only the rows that grant something. A grant through "full access" or the "all"
 * row shows as a lighter tick. The stored value stays the list of strings.
 */
import { Fragment, useMemo, useState } from 'react';
import { Button, Checkbox, FieldContextProvider, Input, Tag, TagGroup } from '@fluentui/react-components';
import { CheckmarkRegular, ChevronDownRegular, ChevronRightRegular } from '@fluentui/react-icons';
import type { WidgetProps } from '@rjsf/utils';
import type { MachineDefinition } from '../../../../generated/meta.ts';
import { manifests } from '../../../../definitions/client.ts';
import { useMachines } from '../../../../client/react/hooks.ts';
import type { Translator } from '../../messages.ts';
import { useTranslator } from '../../useTranslator.ts';
import {
  BASIC_ACTIONS,
  grantOf,
  rowGranted,
  toggle,
  unplaced,
  type BasicAction,
  type Grant,
  type MatrixRow,
} from './permission-model.ts';
import { useMatrixStyles } from './styles.ts';

/** One entry of `ui:options.subjects`: a subject no entity has, or more actions for one that has. */
export interface SubjectOption {
  subject: string;
  labelKey?: string;
  /** The standard columns that apply (default: all five). */
  basic?: BasicAction[];
  actions?: Array<{ action: string; labelKey: string }>;
}

/** The text key of a machine's event (as the transition buttons name it, engine/detail/TransitionBar.tsx). */
const eventKey = (machine: string, event: string): string => `workflow.${machine}.events.${event}`;

/** The events of a machine config, in the order its states name them. */
function eventsOf(machine: MachineDefinition | undefined): string[] {
  if (!machine) return [];
  const config = machine as unknown as { on?: object; states?: Record<string, { on?: object }> };
  const names = [config.on, ...Object.values(config.states ?? {}).map((s) => s.on)].flatMap((on) =>
    Object.keys(on ?? {}),
  );
  return [...new Set(names)];
}

/** The rows: the options' own subjects first, then every entity subject by its title. */
function useMatrixRows(options: readonly SubjectOption[], i18n: Translator): MatrixRow[] {
  const bySubject = useMemo(() => {
    const map = new Map<string, { titleKey: string; workflow?: string }[]>();
    for (const m of manifests.values()) {
      if (!m.subject) continue;
      map.set(m.subject, [...(map.get(m.subject) ?? []), { titleKey: m.titleKey, workflow: m.workflow }]);
    }
    return map;
  }, []);
  const workflows = useMemo(
    () => [...new Set([...bySubject.values()].flat().flatMap((e) => (e.workflow ? [e.workflow] : [])))],
    [bySubject],
  );
  const machines = useMachines(workflows);
  const extra = (subject: string) =>
    (options.find((o) => o.subject === subject)?.actions ?? []).map((a) => ({
      action: a.action,
      label: i18n.t(a.labelKey),
    }));
  const own: MatrixRow[] = options
    .filter((o) => !bySubject.has(o.subject))
    .map((o) => ({
      subject: o.subject,
      label: o.labelKey ? i18n.t(o.labelKey) : o.subject,
      basic: o.basic ?? BASIC_ACTIONS,
      actions: extra(o.subject),
    }));
  const entities: MatrixRow[] = [...bySubject].map(([subject, list]) => {
    const events = list.flatMap((e) =>
      eventsOf(machines.get(e.workflow ?? '')).map((event) => ({
        action: event,
        label: i18n.t(eventKey(e.workflow!, event)),
      })),
    );
    const actions = [...events, ...extra(subject)].filter(
      (a, i, all) => all.findIndex((b) => b.action === a.action) === i,
    );
    const label = [...new Set(list.map((e) => i18n.t(e.titleKey)))].join(' / ');
    const basic = options.find((o) => o.subject === subject)?.basic ?? BASIC_ACTIONS;
    return { subject, label, basic, actions };
  });
  entities.sort((a, b) => a.label.localeCompare(b.label));
  return [...own, ...entities];
}

/** A read-only cell: a tick (lighter when granted through full access or "all"), or nothing. */
function Tick({ grant, permission, i18n }: { grant: Grant; permission: string; i18n: Translator }) {
  const s = useMatrixStyles();
  if (grant === 'none') return <span className={s.none} data-permission={permission} data-granted="none" />;
  return (
    <span
      role="img"
      className={grant === 'implied' ? s.implied : s.tick}
      aria-label={i18n.t(grant === 'implied' ? 'roles.matrix.implied' : 'roles.matrix.granted')}
      title={grant === 'implied' ? i18n.t('roles.matrix.implied') : undefined}
      data-permission={permission}
      data-granted={grant}
    >
      <CheckmarkRegular />
    </span>
  );
}

/** The permission matrix (see the file comment). */
export function PermissionMatrixWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, options, onChange, onBlur, onFocus } = props;
  const s = useMatrixStyles();
  const i18n = useTranslator();
  const rows = useMatrixRows((options.subjects as SubjectOption[] | undefined) ?? [], i18n);
  const selected: string[] = Array.isArray(value) ? value.map(String) : [];
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [filter, setFilter] = useState('');
  const reading = Boolean(readonly || disabled);
  const needle = filter.trim().toLocaleLowerCase();
  const shown = rows.filter((r) =>
    reading ? rowGranted(selected, r) : !needle || r.label.toLocaleLowerCase().includes(needle),
  );
  const others = unplaced(selected, rows);
  const set = (permission: string, on: boolean) => onChange(toggle(selected, permission, on));
  const column = (a: BasicAction) => i18n.t(`roles.matrix.${a}`);

  /** One cell; `visible`: the box carries its label beside it (a further action). */
  const cell = (row: MatrixRow, action: string, label: string, visible = false) => {
    const permission = `${action} ${row.subject}`;
    const grant = grantOf(selected, action, row.subject);
    if (reading) return <Tick grant={grant} permission={permission} i18n={i18n} />;
    return (
      <Checkbox
        data-permission={permission}
        checked={grant !== 'none'}
        // Granted through full access or "all": shown, changed there.
        disabled={grant === 'implied'}
        {...(visible ? { label } : { 'aria-label': `${row.label}: ${label}` })}
        onChange={(_, data) => set(permission, data.checked === true)}
      />
    );
  };
  const grantedActions = (row: MatrixRow) =>
    row.actions.filter((a) => grantOf(selected, a.action, row.subject) !== 'none');
  const actionsCell = (row: MatrixRow) => {
    if (!row.actions.length) return null;
    const granted = grantedActions(row);
    const expanded = open.has(row.subject);
    return (
      <Button
        size="small"
        appearance="subtle"
        icon={expanded ? <ChevronDownRegular /> : <ChevronRightRegular />}
        aria-expanded={expanded}
        data-expand={row.subject}
        onClick={() =>
          setOpen((o) => {
            const next = new Set(o);
            if (expanded) next.delete(row.subject);
            else next.add(row.subject);
            return next;
          })
        }
      >
        {i18n.t('roles.matrix.actionsCount', { count: granted.length, total: row.actions.length })}
      </Button>
    );
  };

  return (
    <div
      id={id}
      className={s.root}
      data-permission-matrix={reading ? 'read' : 'edit'}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    >
      {!reading && (
        <Input
          className={s.filter}
          value={filter}
          placeholder={i18n.t('roles.matrix.find')}
          aria-label={i18n.t('roles.matrix.find')}
          onChange={(_, d) => setFilter(d.value)}
        />
      )}
      {reading && !shown.length && !others.length && <p className={s.empty}>{i18n.t('roles.matrix.nothing')}</p>}
      {/* The boxes are named by their row and column, not by the surrounding field. */}
      <FieldContextProvider value={undefined}>
        {shown.length > 0 && (
          // A wide matrix scrolls by itself on a phone; the keyboard can reach and scroll it too.
          <div className={s.scroll} role="region" aria-label={i18n.t('roles.matrix.region')} tabIndex={0}>
            <table className={s.table}>
              <thead>
                <tr>
                  <th scope="col" className={s.subjectHead}>
                    {i18n.t('roles.matrix.subject')}
                  </th>
                  {BASIC_ACTIONS.map((a) => (
                    <th key={a} scope="col" className={s.head}>
                      {column(a)}
                    </th>
                  ))}
                  {!reading && (
                    <th scope="col" className={s.head}>
                      {i18n.t('roles.matrix.actions')}
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {shown.map((row) => (
                  <Fragment key={row.subject}>
                    <tr data-subject={row.subject}>
                      <th scope="row" className={s.subject}>
                        {row.label}
                      </th>
                      {BASIC_ACTIONS.map((a) => (
                        <td key={a} className={s.cell}>
                          {row.basic.includes(a) ? cell(row, a, column(a)) : null}
                        </td>
                      ))}
                      {!reading && <td className={s.actionsCell}>{actionsCell(row)}</td>}
                    </tr>
                    {/* Read, the further actions granted are a line under their row, in words. */}
                    {reading && grantedActions(row).length > 0 && (
                      <tr>
                        <td colSpan={BASIC_ACTIONS.length + 1} className={s.grantedRow}>
                          <span className={s.granted} data-actions={row.subject}>
                            <span className={s.grantedHead}>{i18n.t('roles.matrix.actions')}: </span>
                            {grantedActions(row)
                              .map((a) => a.label)
                              .join(', ')}
                          </span>
                        </td>
                      </tr>
                    )}
                    {!reading && open.has(row.subject) && (
                      <tr data-events={row.subject}>
                        <td colSpan={BASIC_ACTIONS.length + 2}>
                          <div className={s.events}>
                            {row.actions.map((a) => (
                              <span key={a.action} className={s.event}>
                                {cell(row, a.action, a.label, true)}
                              </span>
                            ))}
                          </div>
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </FieldContextProvider>
      {others.length > 0 && (
        <div className={s.others} data-others>
          <span>{i18n.t('roles.matrix.others')}</span>
          <TagGroup size="small" onDismiss={(_, d) => set(String(d.value), false)}>
            {others.map((p) => (
              <Tag key={p} value={p} dismissible={!reading}>
                {p}
              </Tag>
            ))}
          </TagGroup>
        </div>
      )}
    </div>
  );
}
