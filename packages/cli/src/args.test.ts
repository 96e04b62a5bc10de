import { afterEach, describe, expect, it } from 'vitest';
import { parseCommand, takeLanguage } from './args.ts';
import { CliError, ExitCode } from './exit-codes.ts';
import { useLanguage } from './messages.ts';

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
  afterEach(() => useLanguage('zh'));

  it('reads an upload with repeated attachments and defaults', () => {
    expect(
      parseCommand([
        'upload',
        'dist/app.apk',
        '--app',
        'shop',
        '--attach',
        'a.txt',
        '--attach',
        'b.pdf',
        '--chat-env',
        'PreFavTest',
        '--json',
      ]),
    ).toEqual({
      name: 'upload',
      file: 'dist/app.apk',
      app: 'shop',
      note: '',
      attach: ['a.txt', 'b.pdf'],
      chatEnv: 'PreFavTest',
      skipExisting: false,
      allowOtherBundleId: false,
      commit: [],
      branch: null,
      modules: [],
      json: true,
      server: undefined,
    });
    expect(
      parseCommand([
        'upload',
        'x.ipa',
        '--app',
        'shop',
        '--skip-existing',
        '--allow-other-bundle-id',
        '--note',
        '修复',
        '--server',
        'https://r.example.com',
        '--commit',
        'A1B2C3D4E5',
        '--commit',
        'r1024',
        '--branch',
        'release/1.4',
      ]),
    ).toMatchObject({
      commit: ['A1B2C3D4E5', 'r1024'],
      branch: 'release/1.4',
      skipExisting: true,
      allowOtherBundleId: true,
      note: '修复',
      chatEnv: null,
      json: false,
      server: 'https://r.example.com',
    });
  });

  it('reads latest and login', () => {
    expect(parseCommand(['latest', '--app', 'shop', '--platform', 'mac'])).toEqual({
      name: 'latest',
      app: 'shop',
      platform: 'mac',
      json: false,
      server: undefined,
    });
    expect(parseCommand(['login', '--token', 'rst_abc', '--server', 'http://localhost:8080'])).toEqual({
      name: 'login',
      token: 'rst_abc',
      server: 'http://localhost:8080',
      json: false,
    });
  });

  it('answers help for the program and for each command, in Chinese unless English is asked for', () => {
    expect(parseCommand(['--help'])).toMatchObject({ name: 'help', text: expect.stringContaining('退出码：') });
    expect(parseCommand(['upload', '--help'])).toMatchObject({
      name: 'help',
      text: expect.stringMatching(/^用法：release-cli upload <file>/),
    });
    useLanguage('en');
    expect(parseCommand(['--help'])).toMatchObject({ name: 'help', text: expect.stringContaining('Exit codes') });
    expect(parseCommand(['upload', '--help'])).toMatchObject({
      name: 'help',
      text: expect.stringMatching(/^Usage: release-cli upload <file>/),
    });
  });

  it('takes --lang anywhere on the line, else RELEASE_LANG, else Chinese', () => {
    expect(takeLanguage(['upload', 'a.apk', '--lang', 'en', '--app', 'shop'], undefined)).toEqual({
      language: 'en',
      argv: ['upload', 'a.apk', '--app', 'shop'],
    });
    expect(takeLanguage(['--lang=zh', 'latest'], 'en')).toEqual({ language: 'zh', argv: ['latest'] });
    expect(takeLanguage(['latest'], 'en_US.UTF-8')).toEqual({ language: 'en', argv: ['latest'] });
    expect(takeLanguage(['latest'], undefined)).toEqual({ language: 'zh', argv: ['latest'] });
    expect(takeLanguage(['upload', '--', '--lang'], undefined)).toEqual({
      language: 'zh',
      argv: ['upload', '--', '--lang'],
    });
    expect(() => takeLanguage(['--lang', 'fr'], undefined)).toThrow('--lang / RELEASE_LANG 只能是 zh 或 en：fr');
  });

  it('refuses wrong usage with exit code 2 and says what is wrong, in Chinese', () => {
    expect(usageMessage([])).toContain('没有给出命令');
    expect(usageMessage(['publish'])).toContain('未知命令 "publish"');
    expect(usageMessage(['upload', '--app', 'shop'])).toContain('缺少安装包文件');
    expect(usageMessage(['upload', 'a.apk', 'b.apk', '--app', 'shop'])).toContain('只能给出一个安装包文件');
    expect(usageMessage(['upload', 'a.apk'])).toBe(
      '必须给出 --app <path>\n用法：' +
        'release-cli upload <file> [<module>...] --app <path> [--note <text>] [--attach <file>]... [--chat-env DevTest|PreFavTest] [--skip-existing] [--allow-other-bundle-id] [--commit <sha>]... [--branch <name>] [--json] [--server <url>]',
    );
    expect(usageMessage(['upload', 'a.apk', '--app', '../shop'])).toContain('不是应用路径');
    expect(usageMessage(['upload', 'a.apk', '--app', 'shop', '--chat-env', 'Prod'])).toContain(
      '--chat-env 只能是 DevTest、PreFavTest（收到 "Prod"）',
    );
    expect(usageMessage(['upload', 'a.apk', '--app', 'shop', '--force'])).toContain('未知选项 --force');
    expect(usageMessage(['upload', 'a.apk', '--note'])).toContain('选项 --note 需要一个值');
    expect(usageMessage(['upload', 'a.apk', '--app', 'shop', '--commit', 'main'])).toContain(
      '--commit："main" 不是提交号（7–64 位十六进制）或 svn 版本号',
    );
    expect(usageMessage(['latest', '--app', 'shop'])).toContain('--platform 只能是 ios、android、web、mac');
  });

  it('refuses wrong usage in English with --lang en', () => {
    useLanguage('en');
    expect(usageMessage([])).toContain('no command given');
    expect(usageMessage(['publish'])).toContain('unknown command "publish"');
    expect(usageMessage(['upload', '--app', 'shop'])).toContain('the package file is missing');
    expect(usageMessage(['upload', 'a.apk', 'b.apk', '--app', 'shop'])).toContain('exactly one package file');
    expect(usageMessage(['upload', 'a.apk'])).toContain('--app <path> is required');
    expect(usageMessage(['upload', 'a.apk', '--app', '../shop'])).toContain('is not an app path');
    expect(usageMessage(['upload', 'a.apk', '--app', 'shop', '--chat-env', 'Prod'])).toContain(
      '--chat-env must be one of DevTest, PreFavTest',
    );
    expect(usageMessage(['upload', 'a.apk', '--app', 'shop', '--force'])).toContain('unknown option --force');
    expect(usageMessage(['latest', '--app', 'shop'])).toContain('--platform must be one of ios, android, web, mac');
  });
});
