import { parseArgs, type ParseArgsConfig } from 'node:util';
import { APP_PATH_PATTERN, chatEnvs, nativePackageTypes, type NativePackageType } from '@release/contract';
import { CliError, ExitCode } from './exit-codes.ts';

type ChatEnv = (typeof chatEnvs)[number];

export type Command =
  | { name: 'help'; text: string }
  | { name: 'upload'; file: string; app: string; note: string; attach: string[]; chatEnv: ChatEnv | null; skipExisting: boolean; json: boolean; server?: string }
  | { name: 'latest'; app: string; platform: NativePackageType; json: boolean; server?: string }
  | { name: 'login'; token?: string; server?: string; json: boolean }
  | { name: 'lark-login'; server?: string; browser: boolean; json: boolean };

export const USAGE = `release-cli — publish packages to the release system (发布系统) from terminals and CI

Usage:
  release-cli upload <file> --app <path> [--note <text>] [--attach <file>]...
                     [--chat-env DevTest|PreFavTest] [--skip-existing] [--json]
  release-cli latest --app <path> --platform ios|android|web|mac [--json]
  release-cli login --token <token> [--server <url>]
  release-cli login --lark [--no-browser] [--server <url>]
  release-cli <command> --help

Options:
  --app <path>        the app's download path (the "path" of /package/<path>)
  --note <text>       the version's description (更新说明)
  --attach <file>     an attachment to publish with the package; repeatable
  --chat-env <env>    the robot environment to notify: DevTest or PreFavTest
  --skip-existing     read the package's version and build; if the app already has them, publish nothing
  --platform <p>      ios, android, web or mac
  --server <url>      the release system's URL (default: RELEASE_SERVER, then the login config)
  --json              print one JSON object on stdout when done (progress stays on stderr)

Environment:
  RELEASE_SERVER      the release system's URL, e.g. https://release.example.com
  RELEASE_TOKEN       an API token (rst_…), created with POST /api/api_token (docs/ci-pipelines.md)
  RELEASE_RETRY_DELAY_MS  pause before a refused part is sent again, in ms × the attempt (default 500)
  The login command stores both in ~/.config/release-cli/config.json (mode 0600); the
  environment wins over that file.

Exit codes:
  0 done (or skipped with --skip-existing)   2 wrong usage
  3 no token or token refused                4 app or version not found, or no permit
  5 package refused by the server            6 network or server error (worth a retry)
  1 unexpected error of the CLI itself (a bug; the stack is printed)
`;

const COMMAND_USAGE: Record<string, string> = {
  upload: 'release-cli upload <file> --app <path> [--note <text>] [--attach <file>]... [--chat-env DevTest|PreFavTest] [--skip-existing] [--json] [--server <url>]',
  latest: 'release-cli latest --app <path> --platform ios|android|web|mac [--json] [--server <url>]',
  login: 'release-cli login --token <token> [--server <url>] [--json]\n  Checks the token against the server, then stores server and token in ~/.config/release-cli/config.json (0600).\nrelease-cli login --lark [--no-browser] [--server <url>] [--json]\n  Signs in with Lark (飞书) in a browser; the session (7 days) is stored the same way.',
};

const common = {
  server: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

function usageError(message: string, command?: string): CliError {
  return new CliError(ExitCode.usage, `${message}\nUsage: ${command ? (COMMAND_USAGE[command] ?? USAGE) : 'release-cli --help'}`);
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message, command);
  }
}

function appPath(value: string | undefined, command: string): string {
  if (!value) throw usageError('--app <path> is required', command);
  if (!APP_PATH_PATTERN.test(value)) throw usageError(`--app: "${value}" is not an app path (letters, digits, - and _, at most 32)`, command);
  return value;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string, command: string): T {
  const found = allowed.find((v) => v === value);
  if (!found) throw usageError(`${flag} must be one of ${allowed.join(', ')}${value === undefined ? '' : ` (got "${value}")`}`, command);
  return found;
}

/** Reads the command line; throws a usage CliError (exit 2) on anything wrong. */
export function parseCommand(argv: string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined) throw usageError('no command given');
  if (name === '--help' || name === '-h' || name === 'help') return { name: 'help', text: USAGE };

  if (name === 'upload') {
    const { values, positionals } = parse(name, rest, {
      ...common,
      app: { type: 'string' },
      note: { type: 'string' },
      attach: { type: 'string', multiple: true },
      'chat-env': { type: 'string' },
      'skip-existing': { type: 'boolean', default: false },
    });
    if (values.help) return { name: 'help', text: `Usage: ${COMMAND_USAGE.upload}\n` };
    if (positionals.length !== 1 || !positionals[0]) throw usageError(positionals.length ? 'give exactly one package file' : 'the package file is missing', name);
    return {
      name,
      file: positionals[0],
      app: appPath(values.app, name),
      note: values.note ?? '',
      attach: values.attach ?? [],
      chatEnv: values['chat-env'] === undefined ? null : oneOf(values['chat-env'], chatEnvs, '--chat-env', name),
      skipExisting: values['skip-existing'],
      json: values.json,
      server: values.server,
    };
  }

  if (name === 'latest') {
    const { values, positionals } = parse(name, rest, { ...common, app: { type: 'string' }, platform: { type: 'string' } });
    if (values.help) return { name: 'help', text: `Usage: ${COMMAND_USAGE.latest}\n` };
    if (positionals.length) throw usageError(`unexpected argument "${positionals[0]}"`, name);
    return { name, app: appPath(values.app, name), platform: oneOf(values.platform, nativePackageTypes, '--platform', name), json: values.json, server: values.server };
  }

  if (name === 'login') {
    const { values, positionals } = parse(name, rest, { ...common, token: { type: 'string' }, lark: { type: 'boolean', default: false }, 'no-browser': { type: 'boolean', default: false } });
    if (values.help) return { name: 'help', text: `Usage: ${COMMAND_USAGE.login}\n` };
    if (positionals.length) throw usageError(`unexpected argument "${positionals[0]}"`, name);
    if (values.lark && values.token) throw usageError('--lark and --token exclude each other', name);
    if (values.lark) return { name: 'lark-login', server: values.server, browser: !values['no-browser'], json: values.json };
    return { name, token: values.token, server: values.server, json: values.json };
  }

  throw usageError(`unknown command "${name}"`);
}
