import { buildHistory } from './git-history.ts';
import { execFileSync } from 'node:child_process';
const repo = buildHistory('/tmp/exp/g/t/repo');
execFileSync('git', ['clone', '--bare', '--quiet', repo.url, '/tmp/exp/g/t/mirror.git']);
