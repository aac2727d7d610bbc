/**
 * The benchmarks' `--name value` options. `numberOptions(args)` and `textOptions(args)` give a reader of one
 * option: the value after `--name` (a number, or the text as given), or `fallback` when `--name` is absent.
 */
export const textOptions =
  (args: readonly string[]) =>
  (name: string, fallback: string): string => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };

export const numberOptions =
  (args: readonly string[]) =>
  (name: string, fallback: number): number => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
