import { spawn } from 'node:child_process';
const F = '--format=%x1e%H%x00%P%x00%an%x00%ae%x00%ct%x00%B';
for (let r = 0; r < 3; r++) {
  const t = performance.now();
  const child = spawn('git', ['--git-dir=/tmp/exp/g/t/mirror.git', 'log', '--all', '--date-order', '-z', F], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, GIT_FLUSH: process.env.FLUSH ?? '1' } });
  let n = 0;
  child.stdout.on('data', (b: Buffer) => { n += b.length; });
  await new Promise((res) => child.on('close', res));
  console.log('raw data events', n, ((performance.now() - t) / 1000).toFixed(2));
}
