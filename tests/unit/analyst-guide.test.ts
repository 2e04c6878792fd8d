/**
 * docs/analyst-guide.md (issue #16, item 1). The finding: the how-to omitted the access.json
 * permissions, where the machine file goes, the state labels (then global `status.<STATE>` keys), docs:roles /
 * docs:workflows and the required `description`, and had no minimal example to copy. The lists
 * an analyst picks from are generated from the registries (`npm run docs:guide`) and
 * `npm run check` fails when they are stale; the README's how-to agrees with the guide's.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import { GUIDE_PATH, guideBlocks, memberComments, renderGuide } from '../../scripts/guide/blocks.ts';
import { MENU_ICON_NAMES } from '../../src/shared/icon-names.ts';
import { portalWidgetNames } from '../../src/shared/widget-names.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';

const guide = readFileSync(path.join(REPO_ROOT, GUIDE_PATH), 'utf8');
const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The text of a markdown section, from its heading to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(heading);
  expect(start, `no section "${heading}"`).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(heading)![0];
  const rest = text.slice(start + heading.length);
  const next = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? rest : rest.slice(0, next);
}

describe('the analyst guide', () => {
  const howTo = section(guide, '## How to add an entity');

  it('walks through new:entity and names what the old how-to left out', () => {
    for (const needed of [
      'npm run new:entity',
      '--workflow',
      '--like',
      'schemas/_access/access.json',
      'workflows/<id>.machine.json',
      'workflow.<id>.states.<STATE>',
      'npm run docs:roles',
      'npm run docs:workflows',
      '`description`',
      'npm run test:entity',
    ])
      expect(howTo, needed).toContain(needed);
  });

  it('has a minimal example for every definition file', () => {
    for (const heading of [
      '## The manifest: entity.json',
      '## The record schema: schema.json',
      '## The form: ui.json',
      '## The list: grid.json',
      '## The edit rules: edit.json',
      '## Status machines: workflows/\\<id\\>.machine.json',
      '## Screens: screens/\\<id\\>.json',
      '## Texts',
      '## Access: schemas/\\_access/access.json',
    ])
      expect(section(guide, heading), heading).toMatch(/```json\n[\s\S]+?\n```/);
  });

  it('lists every widget, icon and machine implementation the registries have', () => {
    for (const w of portalWidgetNames) expect(guide).toContain(`| \`${w}\` |`);
    for (const icon of MENU_ICON_NAMES) expect(guide).toContain(`\`${icon}\``);
    for (const names of Object.values(implementationNames))
      for (const name of names) expect(guide).toContain(`| \`${name}\` |`);
  });

  it('has its generated lists up to date (npm run docs:guide)', () => {
    expect(renderGuide(guide, guideBlocks(REPO_ROOT)).stale).toEqual([]);
  });

  it('names a stale list and one whose markers are gone', () => {
    const blocks = guideBlocks(REPO_ROOT);
    const edited = guide.replace('| `money` |', '| `moneyy` |');
    expect(renderGuide(edited, blocks).stale).toEqual(['widgets']);
    const cut = guide.replace('<!-- /generated:icons -->', '');
    expect(renderGuide(cut, blocks).stale).toEqual(['icons (markers missing)']);
  });

  it('reads the doc comment of each registry member', () => {
    const source = 'export const things = {\n  /** Does one thing. */\n  one: () => 1,\n  two: 2,\n};\n';
    expect(memberComments(source, 'things')).toEqual(new Map([['one', 'Does one thing.']]));
  });
});

describe("the README's how-to", () => {
  const howTo = section(readme, '## How to add an entity');
  it('is the steps and a link to the guide, naming the same commands', () => {
    expect(howTo).toContain('(docs/analyst-guide.md#how-to-add-an-entity)');
    const guideHowTo = section(guide, '## How to add an entity');
    const commands = [...howTo.matchAll(/npm run [\w:-]+/g)].map((m) => m[0]);
    expect(commands).toContain('npm run new:entity');
    for (const command of commands) expect(guideHowTo, command).toContain(command);
  });
});
