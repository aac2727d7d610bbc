#!/usr/bin/env node
/** Entry point of `npm run verify -- ...` and of the `veritrail-verify` bin (see run-cli.ts). */
import { runVerifyCli } from './run-cli';

runVerifyCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 2;
  },
);
