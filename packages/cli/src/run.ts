import { ApiError } from './api-client.ts';
import { parseCommand, takeLanguage, type Command } from './args.ts';
import { latestCommand } from './commands/latest.ts';
import { larkLoginCommand } from './commands/lark-login.ts';
import { loginCommand } from './commands/login.ts';
import { uploadCommand } from './commands/upload.ts';
import { CliError, ExitCode, type ExitCodeValue } from './exit-codes.ts';
import { text, useLanguage } from './messages.ts';
import { createOutput, type Io } from './output.ts';

/**
 * Runs one command line and answers its exit code; every failure is a message on stderr (and JSON under --json).
 * Messages are Chinese unless `--lang en` or RELEASE_LANG=en.
 */
export async function run(argv: string[], io: Io): Promise<ExitCodeValue> {
  let command: Command | null = null;
  useLanguage('zh');
  try {
    const chosen = takeLanguage(argv, io.env.RELEASE_LANG);
    useLanguage(chosen.language);
    command = parseCommand(chosen.argv);
    const out = createOutput(io, 'json' in command && command.json);
    switch (command.name) {
      case 'help':
        io.stdout.write(command.text);
        return ExitCode.ok;
      case 'upload':
        await uploadCommand(command, io, out);
        return ExitCode.ok;
      case 'latest':
        await latestCommand(command, io, out);
        return ExitCode.ok;
      case 'login':
        await loginCommand(command, io, out);
        return ExitCode.ok;
      case 'lark-login':
        await larkLoginCommand(command, io, out);
        return ExitCode.ok;
    }
  } catch (error) {
    // Anything unforeseen is a bug of the CLI: exit 1 with the stack, never a silent success.
    const failure =
      error instanceof CliError
        ? error
        : new CliError(ExitCode.internal, error instanceof Error ? (error.stack ?? error.message) : String(error));
    const hint = failure instanceof ApiError && failure.exitCode === ExitCode.auth ? text.tokenRefusedHint : '';
    io.stderr.write(`release-cli: ${failure.message}${hint}\n`);
    if (command && 'json' in command && command.json)
      io.stdout.write(`${JSON.stringify({ ok: false, exitCode: failure.exitCode, error: failure.message })}\n`);
    return failure.exitCode;
  }
}
