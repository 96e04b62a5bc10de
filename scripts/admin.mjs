// `npm run admin -- <command>`: the server's operator commands (apps/server/src/admin/main.ts), run from the sources
// with the same environment variables as the server. `npm run admin` alone lists the commands.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/admin/main.ts'), ...process.argv.slice(2)],
  { cwd: process.cwd(), stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
