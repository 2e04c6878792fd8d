import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitionSources, type DefinitionSources } from '../../src/definitions/sources.ts';
import { checkDefinitions, type DefinitionProblem } from '../../src/definitions/check.ts';
import { implementationNames } from '../../src/server/workflow/implementations.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { DEFINITION_RULES } from '../../src/server/capabilities/checks.ts';

/**
 * The boards rule of `npm run check` (src/definitions/check/boards.ts) and the order
 * capability's rule, over the real definitions, each test breaking the project board, the card
 * manifest or my tasks on purpose: the message names the file and the JSON pointer.
 */
let pristine: DefinitionSources;
beforeAll(async () => {
  const { sources, problems } = await loadDefinitionSources(REPO_ROOT);
  expect(problems).toEqual([]);
  pristine = sources;
});

/** The problems of `file` after `change` to a fresh copy of its JSON. */
function broken(file: string, change: (json: any) => void): DefinitionProblem[] {
  const s = new Map([...pristine].map(([k, v]) => [k, { ...v, json: structuredClone(v.json) }]));
  change(s.get(file)!.json);
  return checkDefinitions(s, implementationNames, DEFINITION_RULES).filter((p) => p.file === file);
}
const expectProblem = (problems: DefinitionProblem[], file: string, pointer: string, text: RegExp) =>
  expect(problems, JSON.stringify(problems, null, 1)).toContainEqual(
    expect.objectContaining({ file, pointer, message: expect.stringMatching(text) }),
  );

const BOARD = 'screens/project-board.json';
const CARD = 'schemas/project-task-card/entity.json';

describe('npm run check: boards and order', () => {
  it('accepts the project board as it is', () => {
    expect(broken(BOARD, () => {})).toEqual([]);
  });

  it('names an unknown column entity, a missing route parameter and shown fields of the wrong kind', () => {
    const problems = broken(BOARD, (s) => {
      s.options.columns.entity = 'project-tasks';
      s.options.parentParam = 'projectId';
      s.options.cards.deadlineField = '/employeeIds';
      s.options.cards.colorField = '/colour';
    });
    expectProblem(problems, BOARD, '/options/columns/entity', /entity "project-tasks".*did you mean "project-task"/);
    expectProblem(problems, BOARD, '/options/parentParam', /no parameter ":projectId"/);
    expectProblem(problems, BOARD, '/options/cards/deadlineField', /must be of type string/);
    expectProblem(problems, BOARD, '/options/cards/colorField', /does not exist/);
  });

  it('needs the card entity ordered by the column field, and a grid filter on the parent field', () => {
    const problems = broken(BOARD, (s) => {
      s.options.cards.columnField = '/projectId';
      s.options.cards.parentField = '/deadline';
    });
    expectProblem(problems, BOARD, '/options/cards', /groups by \/taskId .* the board by \/projectId/);
    expectProblem(problems, BOARD, '/options/cards/parentField', /needs an eq filter on \/deadline/);
  });

  it("checks the order's fields and group entity in the manifest", () => {
    const problems = broken(CARD, (m) => {
      m.order = { field: '/name', group: '/employeeIds', groupEntity: 'column' };
    });
    expectProblem(problems, CARD, '/order/field', /must be of type integer/);
    expectProblem(problems, CARD, '/order/group', /not a scalar/);
    expectProblem(problems, CARD, '/order/groupEntity', /entity "column" is not an entity/);
  });

  it("names a list's fixed filter that its grid lacks", () => {
    const file = 'screens/my-tasks.json';
    const problems = broken(file, (s) => {
      s.options.fixedFilters = { mines: 'true' };
    });
    expectProblem(problems, file, '/options/fixedFilters/mines', /filter "mines".*did you mean "mine"/);
  });
});
