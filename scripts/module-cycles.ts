// `npx tsx scripts/module-cycles.ts`: fails (exit 1) on an import cycle between the server's feature modules
// (apps/server/src/modules/<a> → <b> → … → <a>), naming the cycle and the files that close it. Run by `npm test`
// before the suites. Type-only imports count: a module that names another's types depends on its design.
// The cycles that stood when the check came were listed in KNOWN_CYCLE_EDGES and are gone (the list is empty); a new
// edge inside a cycle fails, and so does a listed edge that no longer closes one (take it off the list).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `a -> b`: module a imports module b, and b reaches back to a. Empty: the server's modules have no cycle. */
export const KNOWN_CYCLE_EDGES: readonly string[] = [];

/** Module → the modules it imports, each with one import that shows it (`a/x.ts -> b/y.ts`). */
export type ModuleGraph = Map<string, Map<string, string>>;

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s*['"]([^'"]+)['"]/g;

/** The module graph of sources keyed by their path under the modules folder (`versions/version-row.ts`). */
export function moduleGraph(sources: ReadonlyMap<string, string>): ModuleGraph {
  const graph: ModuleGraph = new Map();
  for (const [file, text] of sources) {
    const from = file.split('/')[0] as string;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (target.startsWith('..')) continue;
      const to = target.split('/')[0] as string;
      const edges = graph.get(from) as Map<string, string>;
      if (to !== from && !edges.has(to)) edges.set(to, `${file} -> ${target}`);
    }
  }
  return graph;
}

/** Groups of modules that reach each other (Tarjan), those of two or more only. */
export function cycleGroups(graph: ModuleGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** The shortest way back from `to` to `from` inside a group: the cycle that the edge from → to closes. */
function cycleThrough(graph: ModuleGraph, group: readonly string[], from: string, to: string): string[] {
  const previous = new Map<string, string>([[to, to]]);
  const queue = [to];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    if (node === from) break;
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!group.includes(next) || previous.has(next)) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  const back: string[] = [];
  for (let node = from; node !== to; node = previous.get(node) as string) back.unshift(node);
  return [from, to, ...back];
}

/** What is wrong, one message per line: new edges inside a cycle, and listed edges that no longer close one. */
export function cycleProblems(graph: ModuleGraph, known: readonly string[]): string[] {
  const problems: string[] = [];
  const inCycles = new Set<string>();
  for (const group of cycleGroups(graph)) {
    for (const from of group) {
      for (const [to, _shown] of graph.get(from) ?? []) {
        if (!group.includes(to)) continue;
        const edge = `${from} -> ${to}`;
        inCycles.add(edge);
        if (known.includes(edge)) continue;
        const cycle = cycleThrough(graph, group, from, to);
        const evidence = cycle
          .slice(0, -1)
          .map((a, i) => graph.get(a)?.get(cycle[i + 1] as string))
          .join('; ');
        problems.push(`import cycle between modules: ${cycle.join(' → ')} (${evidence})`);
      }
    }
  }
  for (const edge of known)
    if (!inCycles.has(edge))
      problems.push(`${edge} no longer closes a cycle: take it off KNOWN_CYCLE_EDGES in scripts/module-cycles.ts`);
  return problems;
}

/** The non-test TypeScript files under a modules folder, keyed by their path inside it. */
export function readModuleSources(modulesDir: string): Map<string, string> {
  const sources = new Map<string, string>();
  for (const entry of fs.readdirSync(modulesDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    const full = path.join(entry.parentPath, entry.name);
    sources.set(path.relative(modulesDir, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
  }
  return sources;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const modulesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/src/modules');
  const problems = cycleProblems(moduleGraph(readModuleSources(modulesDir)), KNOWN_CYCLE_EDGES);
  for (const problem of problems) console.error(`✗ ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log('module cycles: none new');
}
