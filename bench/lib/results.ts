import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Row } from './report.ts';

/** Where every bench run appends its table (bench/README.md links it instead of copying numbers). */
export const RESULTS_FILE = path.resolve(import.meta.dirname, '../RESULTS.md');

function commit(): string {
  try {
    const root = path.resolve(import.meta.dirname, '../..');
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
      encoding: 'utf8',
    });
    return dirty.trim() ? `${sha} + uncommitted changes` : sha;
  } catch {
    return 'unknown commit';
  }
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/**
 * Appends one run's table to bench/RESULTS.md: what ran, the commit, date, machine load and cores, then the rows
 * (a row's reference says so when it is not the reference its goal names) and the notes.
 */
export function recordResults(title: string, rows: Row[], notes: string[] = [], loadAtStart?: number[]): void {
  const load = os.loadavg().map((value) => value.toFixed(1));
  const lines = [
    `## ${title}`,
    '',
    `${new Date().toISOString()} · commit ${commit()} · ${os.cpus().length} cores · load ${loadAtStart ? `${loadAtStart.map((v) => v.toFixed(1)).join('/')} at start, ` : ''}${load.join('/')} at the end (1/5/15 min) · node ${process.version}`,
    '',
    '| metric | ours | reference | ratio | target | result |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${[row.metric, row.ours, row.reference, row.ratio, row.target, row.pass === null ? 'SKIP' : row.pass ? 'PASS' : 'MISS'].map(cell).join(' | ')} |`,
    ),
    ...(notes.length > 0 ? ['', ...notes.map((note) => `- ${note}`)] : []),
    '',
    '',
  ];
  if (!fs.existsSync(RESULTS_FILE))
    fs.writeFileSync(
      RESULTS_FILE,
      '# Bench results\n\nWritten by the bench runs themselves (`npm run bench`, newest last); see README.md for what each row means.\n\n',
    );
  fs.appendFileSync(RESULTS_FILE, lines.join('\n'));
  formatResults();
}

/** Aligns the tables as Biome does (`biome ci` checks markdown): a run leaves the file as the linter wants it. */
function formatResults(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  try {
    execFileSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', RESULTS_FILE], {
      cwd: root,
      stdio: 'ignore',
    });
  } catch {
    // Not formatted: the results are written all the same (`npx biome format --write bench/RESULTS.md` aligns them).
  }
}
