/**
 * A small argument parser: flags declared per command, `--flag value` and `--flag=value` forms, repeatable
 * flags collected into arrays, everything else positional. Kept local so the CLI has no dependencies.
 */
export class UsageError extends Error {}

export interface FlagSpec {
  names: string[]; // e.g. ['-d', '--data']
  key: string;
  takesValue: boolean;
  repeat?: boolean;
}

export interface ParsedArgs {
  flags: Record<string, string | string[] | boolean>;
  positional: string[];
}

export function parseArgs(argv: string[], specs: FlagSpec[]): ParsedArgs {
  const flags: ParsedArgs['flags'] = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = specs.find((s) => s.names.includes(name));
    if (!spec) throw new UsageError(`unknown flag: ${name}`);
    if (!spec.takesValue) {
      if (eq > 0) throw new UsageError(`flag ${name} takes no value`);
      flags[spec.key] = true;
      continue;
    }
    let value: string;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw new UsageError(`flag ${name} needs a value`);
      value = argv[++i];
    }
    if (spec.repeat) {
      const list = (flags[spec.key] as string[] | undefined) ?? [];
      list.push(value);
      flags[spec.key] = list;
    } else flags[spec.key] = value;
  }
  return { flags, positional };
}
