/**
 * Messages for a name that is not among the allowed ones (a widget, an icon; later formats,
 * lists, fields): the closest allowed name when one is near ("did you mean"), and the whole
 * list, so the author never has to look it up elsewhere.
 */

/** Edit distance (insert, delete, substitute one character), case-insensitive. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * The allowed name closest to `name`, when it is close enough to be a slip: it differs only
 * in case, or by at most two edits (never all its letters: "ab" is no slip of "cd").
 * @example closestName('Gavl', ['Gavel', 'Home']) // 'Gavel'
 */
export function closestName(name: string, allowed: Iterable<string>): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const candidate of allowed) {
    const d = distance(name, candidate);
    if (!best || d < best.d) best = { name: candidate, d };
  }
  return best && best.d <= 2 && best.d < name.length ? best.name : undefined;
}

/**
 * `<what> "<name>" is not <among>; did you mean "<closest>"? Allowed: a, b, c` (sorted),
 * the hint only when a close name exists.
 * @example unknownNameMessage('menu icon', 'Gavl', 'a menu icon', ['Gavel', 'Home'])
 * // 'menu icon "Gavl" is not a menu icon; did you mean "Gavel"? Allowed: Gavel, Home'
 */
export function unknownNameMessage(what: string, name: string, among: string, allowed: Iterable<string>): string {
  const names = [...new Set(allowed)].sort();
  const closest = closestName(name, names);
  return `${what} "${name}" is not ${among}${closest ? `; did you mean "${closest}"?` : ';'} Allowed: ${names.join(', ')}`;
}

/**
 * `; did you mean "<closest>"?` when an allowed name is close to `name`, else '' — for
 * messages that keep their own wording (a missing field, a missing list).
 * @example `field "/nme" does not exist${didYouMean('/nme', ['/name'])}` // 'field "/nme" does not exist; did you mean "/name"?'
 */
export function didYouMean(name: string, allowed: Iterable<string>): string {
  const closest = closestName(name, allowed);
  return closest ? `; did you mean "${closest}"?` : '';
}
