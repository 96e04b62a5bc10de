import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configPath, normalizeServer, readConfig, resolveConnection, writeConfig } from './config.ts';
import { CliError, ExitCode } from './exit-codes.ts';

const dirs: string[] = [];
function home(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-cli-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function exitCodeOf(fn: () => unknown): number | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof CliError ? error.exitCode : -1;
  }
}

describe('server and token settings', () => {
  it('stores the login in ~/.config/release-cli/config.json readable by the user only', () => {
    const HOME = home();
    const file = configPath({ HOME });
    expect(file).toBe(path.join(HOME, '.config/release-cli/config.json'));
    writeConfig(file, { server: 'https://r.example.com', token: 'rst_secret' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readConfig(file)).toEqual({ server: 'https://r.example.com', token: 'rst_secret' });
    expect(configPath({ HOME, XDG_CONFIG_HOME: '/etc/xdg' })).toBe('/etc/xdg/release-cli/config.json');
  });

  it('prefers --server, then the environment, then the stored login', () => {
    const HOME = home();
    writeConfig(configPath({ HOME }), { server: 'https://stored.example.com/', token: 'rst_stored' });
    expect(resolveConnection({}, { HOME })).toEqual({ server: 'https://stored.example.com', token: 'rst_stored' });
    expect(resolveConnection({}, { HOME, RELEASE_SERVER: 'http://env:8080', RELEASE_TOKEN: 'rst_env' })).toEqual({
      server: 'http://env:8080',
      token: 'rst_env',
    });
    expect(resolveConnection({ server: 'http://flag' }, { HOME, RELEASE_SERVER: 'http://env:8080' }).server).toBe(
      'http://flag',
    );
  });

  it('says which setting is missing or wrong, with the exit code CI expects', () => {
    const HOME = home();
    expect(exitCodeOf(() => resolveConnection({}, { HOME }))).toBe(ExitCode.usage);
    expect(exitCodeOf(() => resolveConnection({}, { HOME, RELEASE_SERVER: 'http://r' }))).toBe(ExitCode.auth);
    expect(exitCodeOf(() => normalizeServer('ftp://r.example.com'))).toBe(ExitCode.usage);
    fs.mkdirSync(path.dirname(configPath({ HOME })), { recursive: true });
    fs.writeFileSync(configPath({ HOME }), 'not json');
    expect(exitCodeOf(() => readConfig(configPath({ HOME })))).toBe(ExitCode.usage);
  });
});
