/** Entry point of `npm run rego -- ...` (see run-cli.ts for the commands). */
import { processIo } from './io';
import { runCli } from './run-cli';

runCli(process.argv.slice(2), processIo).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
