import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycleGroups, cycleProblems, KNOWN_CYCLE_EDGES, moduleGraph, readModuleSources } from './module-cycles.ts';

const graphOf = (files: Record<string, string>) => moduleGraph(new Map(Object.entries(files)));

describe('module import cycles', () => {
  it('draws an edge per module imported from another module, type-only and dynamic imports too', () => {
    const graph = graphOf({
      'versions/a.ts':
        "import type { U } from '../uploads/u.ts';\nimport { x } from './b.ts';\nimport { y } from '../../http/links.ts';",
      'uploads/u.ts': "export { r } from '../versions/row.ts';\nconst m = await import('../media/m.ts');",
      'media/m.ts': "import { z } from 'zod';",
    });
    expect([...(graph.get('versions')?.keys() ?? [])]).toEqual(['uploads']);
    expect([...(graph.get('uploads')?.keys() ?? [])]).toEqual(['versions', 'media']);
    expect(graph.get('uploads')?.get('versions')).toBe('uploads/u.ts -> versions/row.ts');
    expect(cycleGroups(graph)).toEqual([['uploads', 'versions']]);
  });

  it('names a new cycle with the imports that close it, and passes a graph without one', () => {
    const files = {
      'versions/registration.ts': "import type { Ingest } from '../commit-logs/ingest.ts';",
      'commit-logs/ingest.ts': "import { repo } from '../workflows/repo.ts';",
      'workflows/repo.ts': "import { x } from '../apps/policy.ts';",
      'apps/policy.ts': '',
    };
    expect(cycleProblems(graphOf(files), [])).toEqual([]);
    const problems = cycleProblems(
      graphOf({ ...files, 'workflows/repo.ts': "import { row } from '../versions/row.ts';" }),
      [],
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toBe(
      'import cycle between modules: commit-logs → workflows → versions → commit-logs (commit-logs/ingest.ts -> workflows/repo.ts; workflows/repo.ts -> versions/row.ts; versions/registration.ts -> commit-logs/ingest.ts)',
    );
  });

  it('lets listed cycles stand but not a listed edge that no longer closes one', () => {
    const graph = graphOf({ 'a/x.ts': "import '../b/y.ts';", 'b/y.ts': "import type { X } from '../a/x.ts';" });
    expect(cycleProblems(graph, ['a -> b', 'b -> a'])).toEqual([]);
    expect(cycleProblems(graphOf({ 'a/x.ts': "import { y } from '../b/y.ts';", 'b/y.ts': '' }), ['a -> b'])).toEqual([
      'a -> b no longer closes a cycle: take it off KNOWN_CYCLE_EDGES in scripts/module-cycles.ts',
    ]);
  });

  it('finds no cycle in the server beyond the listed ones', () => {
    const modulesDir = path.resolve(import.meta.dirname, '../apps/server/src/modules');
    expect(cycleProblems(moduleGraph(readModuleSources(modulesDir)), KNOWN_CYCLE_EDGES)).toEqual([]);
  });
});
