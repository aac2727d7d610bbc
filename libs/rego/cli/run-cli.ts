/** Dispatches `rego <command> ...` and maps usage errors to exit code 2. */
import { UsageError } from './args';
import { evalCommand } from './eval-command';
import { CliIo } from './io';
import { testCommand } from './test-command';

export const USAGE = `usage:
  rego eval [-d <file or dir>]... [-b <bundle dir>]... [-i input.json] [--repeat N] [--strict]
            [--strict-builtin-errors] [--v0-compatible] [--capabilities <file>] <query>
  rego test <file or dir>... [--run <regex>] [-v] [-b] [--strict] [--v0-compatible] [--capabilities <file>]
`;

export async function runCli(argv: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'eval':
        return await evalCommand(rest, io, cwd);
      case 'test':
        return await testCommand(rest, io, cwd);
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}
