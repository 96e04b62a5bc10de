import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.ts';
import { CliError, ExitCode } from './exit-codes.ts';

function usageMessage(argv: string[]): string {
  try {
    parseCommand(argv);
  } catch (error) {
    if (error instanceof CliError && error.exitCode === ExitCode.usage) return error.message;
    throw error;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('the command line', () => {
  it('reads an upload with repeated attachments and defaults', () => {
    expect(parseCommand(['upload', 'dist/app.apk', '--app', 'shop', '--attach', 'a.txt', '--attach', 'b.pdf', '--chat-env', 'PreFavTest', '--json'])).toEqual({
      name: 'upload',
      file: 'dist/app.apk',
      app: 'shop',
      note: '',
      attach: ['a.txt', 'b.pdf'],
      chatEnv: 'PreFavTest',
      skipExisting: false,
      json: true,
      server: undefined,
    });
    expect(parseCommand(['upload', 'x.ipa', '--app', 'shop', '--skip-existing', '--note', '修复', '--server', 'https://r.example.com'])).toMatchObject({
      skipExisting: true,
      note: '修复',
      chatEnv: null,
      json: false,
      server: 'https://r.example.com',
    });
  });

  it('reads latest and login', () => {
    expect(parseCommand(['latest', '--app', 'shop', '--platform', 'mac'])).toEqual({ name: 'latest', app: 'shop', platform: 'mac', json: false, server: undefined });
    expect(parseCommand(['login', '--token', 'rst_abc', '--server', 'http://localhost:8080'])).toEqual({ name: 'login', token: 'rst_abc', server: 'http://localhost:8080', json: false });
  });

  it('answers help for the program and for each command', () => {
    expect(parseCommand(['--help'])).toMatchObject({ name: 'help', text: expect.stringContaining('Exit codes') });
    expect(parseCommand(['upload', '--help'])).toMatchObject({ name: 'help', text: expect.stringContaining('release-cli upload <file>') });
  });

  it('refuses wrong usage with exit code 2 and says what is wrong', () => {
    expect(usageMessage([])).toContain('no command given');
    expect(usageMessage(['publish'])).toContain('unknown command "publish"');
    expect(usageMessage(['upload', '--app', 'shop'])).toContain('the package file is missing');
    expect(usageMessage(['upload', 'a.apk', 'b.apk', '--app', 'shop'])).toContain('exactly one package file');
    expect(usageMessage(['upload', 'a.apk'])).toContain('--app <path> is required');
    expect(usageMessage(['upload', 'a.apk', '--app', '../shop'])).toContain('is not an app path');
    expect(usageMessage(['upload', 'a.apk', '--app', 'shop', '--chat-env', 'Prod'])).toContain('--chat-env must be one of DevTest, PreFavTest');
    expect(usageMessage(['upload', 'a.apk', '--app', 'shop', '--force'])).toContain("Unknown option '--force'");
    expect(usageMessage(['latest', '--app', 'shop'])).toContain('--platform must be one of ios, android, web, mac');
  });
});
