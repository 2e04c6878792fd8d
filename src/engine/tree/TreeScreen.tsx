import { useMemo, useState } from 'react';
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Title2,
  tokens,
  Tree,
  TreeItem,
  TreeItemLayout,
  type TreeItemValue,
} from '@fluentui/react-components';
import { AddRegular, OpenRegular, TableRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ScreenProps } from '../types.ts';
import type { StoredRecord } from '../../client/data-provider.ts';
import { useEntity, useGetTree } from '../../client/react/hooks.ts';
import { entityScreenPath } from '../common/routes.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { localizedName, pickLocale } from '../../shared/locales.ts';
import { pointerSegments, valueAt } from '../../shared/pointer.ts';
import { buildTree, type TreeNode } from './tree-data.ts';

/** The most records a tree loads (pages of 100): trees of units or categories are small. */
export const TREE_LIMIT = 1000;
const PAGE = 100;

const useStyles = makeStyles({
  head: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
    marginBottom: tokens.spacingVerticalM,
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, marginLeft: 'auto' },
  aside: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  code: {
    color: tokens.colorNeutralForeground3,
    marginLeft: tokens.spacingHorizontalS,
    fontSize: tokens.fontSizeBase200,
  },
});

interface TreeOptions {
  localizedName?: boolean;
}

/**
 * Records as an expandable tree by the manifest's `tree.parentField` (Fluent UI's Tree):
 * each node links to its record page and to a new record under it (the create form gets the
 * parent through the query string). Every record is loaded, at most TREE_LIMIT; past that
 * the screen says so. Roots start open.
 */
export default function TreeScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const entity = screen.entity!;
  const options = (screen.options ?? {}) as TreeOptions;
  const definition = useEntity(entity);
  const tree = definition.data?.manifest.tree;
  const records = useGetTree(entity, { enabled: Boolean(tree), limit: TREE_LIMIT, page: PAGE });
  const roots = useMemo(
    () => (tree && records.data ? buildTree(records.data.list, tree.parentField, tree.sortField) : []),
    [tree, records.data],
  );
  const [open, setOpen] = useState<Set<TreeItemValue> | undefined>(undefined);
  const openItems = open ?? new Set<TreeItemValue>(roots.map((r) => String(r.record.id)));

  if (!definition.data || !records.data)
    return (
      <ScreenState
        screenId={screen.id}
        error={definition.error ?? records.error}
        onRetry={() => void records.refetch()}
      />
    );
  const manifest = definition.data.manifest;
  // The new child's form prefills top-level fields from the query string, by name.
  const parentName = pointerSegments(manifest.tree!.parentField)[0]!;
  const create = entityScreenPath(entity, ['form', 'wizard']);
  const table = entityScreenPath(entity, ['list']);
  const label = (r: StoredRecord): string => {
    if (options.localizedName) return localizedName(r as never, pickLocale(i18n.language));
    const v = manifest.labelField ? valueAt(r, manifest.labelField) : undefined;
    return v === undefined || v === null || v === '' ? `№ ${r.id}` : String(v);
  };

  const renderNode = (node: TreeNode) => {
    const id = node.record.id;
    const detail = entityScreenPath(entity, ['detail'], id);
    return (
      <TreeItem key={id} value={String(id)} itemType={node.children.length ? 'branch' : 'leaf'} data-node={id}>
        <TreeItemLayout
          aside={
            <span className={s.aside}>
              {detail && (
                <Link to={detail} data-action="open" aria-label={t('engine.tree.open')}>
                  <Button size="small" appearance="subtle" icon={<OpenRegular />} title={t('engine.tree.open')} />
                </Link>
              )}
              {create && (
                <Link
                  to={`${create}?${encodeURIComponent(parentName)}=${id}`}
                  data-action="add-child"
                  aria-label={t('engine.tree.addChild')}
                >
                  <Button size="small" appearance="subtle" icon={<AddRegular />} title={t('engine.tree.addChild')} />
                </Link>
              )}
            </span>
          }
        >
          {label(node.record)}
        </TreeItemLayout>
        {node.children.length > 0 && <Tree>{node.children.map(renderNode)}</Tree>}
      </TreeItem>
    );
  };

  return (
    <div data-screen={screen.id} data-entity={entity}>
      <div className={s.head}>
        <Title2 as="h1">{t(screen.titleKey)}</Title2>
        <div className={s.actions}>
          {table && (
            <Link to={table}>
              <Button icon={<TableRegular />} data-action="table">
                {t('engine.tree.table')}
              </Button>
            </Link>
          )}
          {create && (
            <Link to={create}>
              <Button appearance="primary" icon={<AddRegular />} data-action="create">
                {t('engine.tree.addRoot')}
              </Button>
            </Link>
          )}
        </div>
      </div>
      {records.data.truncated && (
        <MessageBar intent="warning">
          <MessageBarBody>{t('engine.tree.truncated', { limit: TREE_LIMIT })}</MessageBarBody>
        </MessageBar>
      )}
      {roots.length === 0 ? (
        <p data-state="empty">{t('engine.tree.empty')}</p>
      ) : (
        <Tree
          aria-label={t(screen.titleKey)}
          openItems={openItems}
          onOpenChange={(_e, data) => setOpen(new Set(data.openItems))}
        >
          {roots.map(renderNode)}
        </Tree>
      )}
    </div>
  );
}
