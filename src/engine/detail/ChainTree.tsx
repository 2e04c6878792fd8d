import { Badge, Body1, Button, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { AddRegular, LockClosedRegular } from '@fluentui/react-icons';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { JSONSchema7 } from 'json-schema';
import type { ChainNode } from '../../client/data-provider.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { useDataProvider, useEntity, useMachineOrNull } from '../../client/react/hooks.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { enumLabel, enumOptions, formatDate, statesKeyOf, statusLabel } from '../../shared/format.ts';
import { entityScreenPath } from '../common/routes.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { stateColor } from './RecordHeader.tsx';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  create: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  list: { listStyleType: 'none', margin: 0, paddingLeft: tokens.spacingHorizontalL },
  top: { listStyleType: 'none', margin: 0, padding: 0 },
  node: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} 0`,
    borderLeft: `2px solid ${tokens.colorNeutralStroke2}`,
    paddingLeft: tokens.spacingHorizontalS,
  },
  current: { fontWeight: tokens.fontWeightSemibold, borderLeftColor: tokens.colorBrandStroke1 },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The chain as nested nodes: each node with the indexes of its children. */
function childrenOf(list: readonly ChainNode[]): Map<number | null, number[]> {
  const out = new Map<number | null, number[]>();
  list.forEach((node, i) => {
    const siblings = out.get(node.parent) ?? [];
    siblings.push(i);
    out.set(node.parent, siblings);
  });
  return out;
}

/**
 * The record page's Tree tab for an entity whose manifest declares `chain`: the chain the
 * record belongs to as nested lists (keyboard users move by Tab through the links), each node
 * with its link kind, label, date and status chip, the open record marked as current, and a
 * record of another scope as "restricted" without data; above it, a button per link kind that
 * opens the new-record form with the parent and link kind filled in.
 * @example <ChainTree entity="correspondence" id={13} />
 */
export function ChainTree({ entity, id }: { entity: string; id: number }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const dp = useDataProvider();
  const definition = useEntity(entity);
  const manifest = definition.data?.manifest;
  const machine = useMachineOrNull(manifest?.workflow, Boolean(manifest?.workflow));
  const chain = useQuery({ queryKey: queryKeys.entity.chain(entity, id), queryFn: () => dp.getChain(entity, id) });
  if (!definition.data || !manifest?.chain || !chain.data)
    return (
      <ScreenState screenId="chain" error={definition.error ?? chain.error} onRetry={() => void chain.refetch()} />
    );
  const spec = manifest.chain;
  const schema = definition.data.schema as JSONSchema7;
  const translate = (key: string) => (i18n.exists(key) ? t(key) : undefined);
  const linkOptions = spec.linkField ? enumOptions(resolveFieldSchema(schema, spec.linkField)) : undefined;
  const statesKey = statesKeyOf(manifest);
  const detail = (nodeId: number) => entityScreenPath(entity, ['detail'], nodeId, ability);
  const form = entityScreenPath(entity, ['form', 'wizard'], undefined, ability);
  const parentName = spec.parentField.slice(1);
  const linkName = spec.linkField?.slice(1);
  const tree = childrenOf(chain.data);

  const renderNode = (index: number): ReactNode => {
    const node = chain.data[index]!;
    const kids = tree.get(index) ?? [];
    const nested = kids.length > 0 && <ul className={s.list}>{kids.map(renderNode)}</ul>;
    if (node.restricted)
      return (
        <li key={index} data-chain-node="restricted">
          <div className={`${s.node} ${s.muted}`}>
            <LockClosedRegular aria-hidden />
            {t('docflow.tree.restricted')}
          </div>
          {nested}
        </li>
      );
    const label = node.label || `№ ${node.id}`;
    const to = node.current ? undefined : detail(node.id!);
    return (
      <li key={index} data-chain-node={node.id} data-current={node.current || undefined}>
        <div className={`${s.node} ${node.current ? s.current : ''}`}>
          {node.link && <span className={s.muted}>{enumLabel(node.link, linkOptions, translate)}:</span>}
          {to ? <Link to={to}>{label}</Link> : <span aria-current="page">{label}</span>}
          {node.date && <span className={s.muted}>{formatDate(node.date)}</span>}
          {node.status && (
            <Badge appearance="tint" color={stateColor(machine.data, node.status)} data-status={node.status}>
              {statusLabel(node.status, translate, statesKey)}
            </Badge>
          )}
        </div>
        {nested}
      </li>
    );
  };

  return (
    <div className={s.root} data-region="chain">
      {form && ability.can('create', manifest.subject) && (
        <div className={s.create}>
          {(linkOptions ?? [{ value: '' }]).map((option) => {
            const query = new URLSearchParams({ [parentName]: String(id) });
            if (linkName && option.value !== '') query.set(linkName, String(option.value));
            const kind = option.value === '' ? '' : enumLabel(option.value, linkOptions, translate);
            return (
              <Link key={String(option.value)} to={`${form}?${query}`} data-action={`chain-create-${option.value}`}>
                <Button icon={<AddRegular />} tabIndex={-1}>
                  {t('docflow.tree.create', { kind })}
                </Button>
              </Link>
            );
          })}
        </div>
      )}
      <Subtitle2 as="h2" id={`chain-${id}`}>
        {t('docflow.tree.heading')}
      </Subtitle2>
      {chain.data.length <= 1 && <Body1>{t('docflow.tree.alone')}</Body1>}
      <ul className={s.top} aria-labelledby={`chain-${id}`}>
        {(tree.get(null) ?? []).map(renderNode)}
      </ul>
    </div>
  );
}
