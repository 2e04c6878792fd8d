/** The definitions diff as `npm run defs:diff` prints it: grouped by entity, plain words. */
import type { DefinitionChange } from './change.ts';

/**
 * The changes as text: a summary line, then one block per group (entity, machine, screens,
 * access) with one line per change, breaking ones marked `BREAKING`.
 * @example formatChanges(changes, 'main')
 * // 'Definitions changed since main: 2 changes, 1 breaking.\n\ncontractor\n  BREAKING  removed /director, added /directorName (a rename?)\n  …'
 */
export function formatChanges(changes: readonly DefinitionChange[], base: string): string {
  if (!changes.length) return `No definition changes since ${base}.`;
  const breaking = changes.filter((c) => c.breaking).length;
  const lines = [
    `Definitions changed since ${base}: ${changes.length} change${changes.length === 1 ? '' : 's'}, ${breaking} breaking.`,
  ];
  let group: string | undefined;
  for (const c of changes) {
    if (c.group !== group) {
      group = c.group;
      lines.push('', group);
    }
    lines.push(`  ${c.breaking ? 'BREAKING' : '        '}  ${c.text}  (${c.file}${c.pointer ? `#${c.pointer}` : ''})`);
  }
  if (breaking)
    lines.push(
      '',
      "BREAKING: stored data or a user's existing right may be lost. A breaking field change needs a higher schemaVersion and a migration (npm run check -- --base <ref> says which).",
    );
  return lines.join('\n');
}
