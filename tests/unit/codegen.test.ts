import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { composeMetaSchemas, generateAll } from '../../scripts/codegen.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

describe('npm run codegen', () => {
  it('has been run: src/generated matches the definitions exactly', async () => {
    const expected = await generateAll();
    for (const [rel, content] of expected) {
      expect(existsSync(path.join(REPO_ROOT, rel)), `${rel} is missing: run npm run codegen`).toBe(true);
      expect(readFileSync(path.join(REPO_ROOT, rel), 'utf8'), `${rel} is stale: run npm run codegen`).toBe(content);
    }
    const onDisk = (dir: string): string[] =>
      readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? onDisk(`${dir}/${d.name}`) : [`${dir}/${d.name}`],
      );
    expect(onDisk('src/generated').sort()).toEqual([...expected.keys()].sort());
  });

  it('has composed the entity meta-schema from its base and the capability fragments', async () => {
    for (const [rel, content] of await composeMetaSchemas()) {
      expect(readFileSync(path.join(REPO_ROOT, rel), 'utf8'), `${rel} is stale: run npm run codegen`).toBe(content);
    }
  });

  it('emits a type per entity and the unions of entity ids and machine events', async () => {
    const files = await generateAll();
    const index = files.get('src/generated/index.ts')!;
    const entities = readdirSync(path.join(REPO_ROOT, 'schemas')).filter((d) => !d.startsWith('_'));
    expect(entities.length).toBeGreaterThan(0);
    for (const id of entities) {
      expect(files.has(`src/generated/entities/${id}.ts`)).toBe(true);
      expect(index).toContain(`'${id}'`);
    }
    expect(index).toMatch(/export type TenderMachineEvent = 'FINISH' \| 'REOPEN';/);
  });
});
