import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  APP_PATH_PATTERN,
  chatEnvs,
  isUploadedTogether,
  nativePackageTypes,
  type NativePackageType,
} from '@release/contract';
import { CliError, ExitCode } from './exit-codes.ts';
import { languageOf, text, type Language } from './messages.ts';

type ChatEnv = (typeof chatEnvs)[number];

export type Command =
  | { name: 'help'; text: string }
  | {
      name: 'upload';
      file: string;
      /** The other modules of a HarmonyOS version (.hap / .hsp) published with `file` as one version. */
      modules: string[];
      app: string;
      note: string;
      attach: string[];
      chatEnv: ChatEnv | null;
      skipExisting: boolean;
      allowOtherBundleId: boolean;
      /** The commit(s) and branch the build came from (issue 19), recorded with the version. */
      commit: string[];
      branch: string | null;
      json: boolean;
      server?: string;
    }
  | { name: 'latest'; app: string; platform: NativePackageType; json: boolean; server?: string }
  | { name: 'login'; token?: string; server?: string; json: boolean }
  | { name: 'lark-login'; server?: string; browser: boolean; json: boolean };

type CommandName = keyof typeof text.commands;

const common = {
  server: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

function usageError(message: string, command?: CommandName): CliError {
  return new CliError(
    ExitCode.usage,
    `${message}\n${text.usage}${command ? text.commands[command] : 'release-cli --help'}`,
  );
}

/** Node's parseArgs explains in English; its error codes are told in the CLI's language. */
function describeParseError(error: Error & { code?: string }): string {
  const option = /'(-[^']*)'/.exec(error.message)?.[1];
  if (option && error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return text.unknownOption(option);
  if (option && error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return text.optionNeedsValue(option.split(' ')[0] ?? option);
  return error.message;
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(command: CommandName, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(describeParseError(error as Error), command);
  }
}

function appPath(value: string | undefined, command: CommandName): string {
  if (!value) throw usageError(text.appRequired, command);
  if (!APP_PATH_PATTERN.test(value)) throw usageError(text.notAnAppPath(value), command);
  return value;
}

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
  command: CommandName,
): T {
  const found = allowed.find((v) => v === value);
  if (!found) throw usageError(text.oneOf(flag, allowed, value), command);
  return found;
}

/**
 * The language of this run and the arguments without `--lang`: `--lang en` / `--lang=en` anywhere on the line, else
 * RELEASE_LANG, else Chinese. A value that is neither is a usage error (told in Chinese, the default).
 */
export function takeLanguage(argv: string[], envValue: string | undefined): { language: Language; argv: string[] } {
  const rest: string[] = [];
  let raw: string | undefined = envValue?.trim() ? envValue : undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--lang') {
      raw = argv[i + 1] ?? '';
      i += 1;
    } else if (arg.startsWith('--lang=')) raw = arg.slice('--lang='.length);
    else rest.push(arg);
  }
  if (raw === undefined) return { language: 'zh', argv: rest };
  const language = languageOf(raw);
  if (!language) throw usageError(text.badLanguage(raw));
  return { language, argv: rest };
}

/** A commit id (7–64 hex digits) or an svn revision (123, r123), as --commit takes it. */
function commitRef(value: string, command: CommandName): string {
  const trimmed = value.trim();
  if (/^[0-9a-f]{7,64}$/i.test(trimmed) || /^r?\d{1,12}$/i.test(trimmed)) return trimmed;
  throw usageError(text.badCommit(value), command);
}

/** Reads the command line (without --lang); throws a usage CliError (exit 2) on anything wrong. */
export function parseCommand(argv: string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined) throw usageError(text.noCommand);
  if (name === '--help' || name === '-h' || name === 'help') return { name: 'help', text: text.program };
  const helpOf = (command: CommandName): Command => ({
    name: 'help',
    text: `${text.usage}${text.commands[command]}\n`,
  });

  if (name === 'upload') {
    const { values, positionals } = parse(name, rest, {
      ...common,
      app: { type: 'string' },
      note: { type: 'string' },
      attach: { type: 'string', multiple: true },
      'chat-env': { type: 'string' },
      'skip-existing': { type: 'boolean', default: false },
      'allow-other-bundle-id': { type: 'boolean', default: false },
      commit: { type: 'string', multiple: true },
      branch: { type: 'string' },
    });
    if (values.help) return helpOf(name);
    if (!positionals[0]) throw usageError(text.fileMissing, name);
    // Several files only as the modules of one HarmonyOS version.
    if (positionals.length > 1 && !positionals.every(isUploadedTogether)) throw usageError(text.oneFileOnly, name);
    return {
      name,
      file: positionals[0],
      modules: positionals.slice(1),
      app: appPath(values.app, name),
      note: values.note ?? '',
      attach: values.attach ?? [],
      chatEnv: values['chat-env'] === undefined ? null : oneOf(values['chat-env'], chatEnvs, '--chat-env', name),
      skipExisting: values['skip-existing'],
      allowOtherBundleId: values['allow-other-bundle-id'],
      commit: (values.commit ?? []).map((c) => commitRef(c, name)),
      branch: values.branch?.trim() || null,
      json: values.json,
      server: values.server,
    };
  }

  if (name === 'latest') {
    const { values, positionals } = parse(name, rest, {
      ...common,
      app: { type: 'string' },
      platform: { type: 'string' },
    });
    if (values.help) return helpOf(name);
    if (positionals[0] !== undefined) throw usageError(text.unexpectedArgument(positionals[0]), name);
    return {
      name,
      app: appPath(values.app, name),
      platform: oneOf(values.platform, nativePackageTypes, '--platform', name),
      json: values.json,
      server: values.server,
    };
  }

  if (name === 'login') {
    const { values, positionals } = parse(name, rest, {
      ...common,
      token: { type: 'string' },
      lark: { type: 'boolean', default: false },
      'no-browser': { type: 'boolean', default: false },
    });
    if (values.help) return helpOf(name);
    if (positionals[0] !== undefined) throw usageError(text.unexpectedArgument(positionals[0]), name);
    if (values.lark && values.token) throw usageError(text.larkAndToken, name);
    if (values.lark)
      return { name: 'lark-login', server: values.server, browser: !values['no-browser'], json: values.json };
    return { name, token: values.token, server: values.server, json: values.json };
  }

  throw usageError(text.unknownCommand(name));
}
