import type { StoredRecord } from '../../client/data-provider.ts';
import { valueAt } from '../../shared/pointer.ts';

/** One node of a record tree: the record and its children, ordered. */
export interface TreeNode {
  record: StoredRecord;
  children: TreeNode[];
}

/**
 * Builds the forest of records by a parent field (the parent's id): records without a
 * parent, or whose parent is not among them, are roots; siblings are ordered by `sortField`,
 * then id. A cycle in the data (a record its own ancestor) cannot loop: every record is
 * placed once, and a cycle's members that no root reaches become roots themselves.
 * @example buildTree(records, '/parentId', '/sortOrder')
 */
export function buildTree(records: StoredRecord[], parentField: string, sortField?: string): TreeNode[] {
  const nodes = new Map(records.map((r) => [r.id, { record: r, children: [] as TreeNode[] }]));
  const parentOf = (r: StoredRecord): number | undefined => {
    const p = valueAt(r, parentField);
    return typeof p === 'number' && p !== r.id && nodes.has(p) ? p : undefined;
  };
  const order = (a: TreeNode, b: TreeNode): number => {
    const x = sortField ? valueAt(a.record, sortField) : undefined;
    const y = sortField ? valueAt(b.record, sortField) : undefined;
    if (x !== y && x !== undefined && y !== undefined) return (x as number | string) < (y as number | string) ? -1 : 1;
    return a.record.id - b.record.id;
  };
  const roots: TreeNode[] = [];
  const placed = new Set<number>();
  const attach = (node: TreeNode): void => {
    placed.add(node.record.id);
    for (const r of records) {
      if (!placed.has(r.id) && parentOf(r) === node.record.id) {
        const child = nodes.get(r.id)!;
        node.children.push(child);
        attach(child);
      }
    }
    node.children.sort(order);
  };
  for (const r of records) if (parentOf(r) === undefined) roots.push(nodes.get(r.id)!);
  roots.sort(order).forEach(attach);
  // Members of a cycle: no root reaches them.
  for (const r of [...records].sort((a, b) => a.id - b.id)) {
    if (!placed.has(r.id)) {
      const node = nodes.get(r.id)!;
      roots.push(node);
      attach(node);
    }
  }
  return roots;
}
