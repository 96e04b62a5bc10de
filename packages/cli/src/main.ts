import { run } from './run.ts';

/** Entry of bin/release-cli.mjs: the real process's streams and environment. */
process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
