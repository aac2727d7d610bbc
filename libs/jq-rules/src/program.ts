/**
 * How a custom attestation type's jq rules are run: every rule (and summary expression) is wrapped so that its
 * outputs and its error come back as data, and all of them are joined into one jq program, so the attestation
 * data is parsed once per attestation however many rules there are. Plain functions, no jq here.
 */

/** One rule's verdict. `passed` only when the rule yielded exactly one value and it was `true`. */
export interface RuleOutcome {
  rule: string;
  passed: boolean;
  /** Why it did not pass (it yielded false, something else than one boolean, or it failed). */
  reason?: string;
}

/** One summary entry: its value, or null when the expression failed or yielded nothing. */
export interface SummaryValue {
  name: string;
  value: unknown;
}

export interface SummaryExpression {
  name: string;
  expression: string;
}

/**
 * A rule as an expression that yields one array: `{v: value}` for each output, then `{e: message}` if it
 * failed. The rule sits on lines of its own so that a trailing `# comment` cannot swallow the wrapper.
 */
export function wrapRule(rule: string): string {
  return `[try ((\n${rule}\n) | {v: .}) catch {e: (. | tostring)}]`;
}

/** A program that compiles `rule` without running it (for checking rules when a type is created). */
export function compileOnly(rule: string): string {
  return `if false then (\n${rule}\n) else empty end`;
}

/** The one program: `{r: [wrapped rule...], s: [wrapped summary expression...]}`. */
export function combinedProgram(rules: readonly string[], summary: readonly SummaryExpression[] = []): string {
  return `{r: [${rules.map(wrapRule).join(',\n')}], s: [${summary.map((s) => wrapRule(s.expression)).join(',\n')}]}`;
}

type Wrapped = Array<{ v?: unknown; e?: string }>;

function isWrapped(value: unknown): value is Wrapped {
  return Array.isArray(value) && value.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x) && ('v' in x || 'e' in x));
}

const MAX_SHOWN = 200;
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

/** The verdict of one rule from its wrapped outputs. */
export function judgeRule(rule: string, outputs: unknown): RuleOutcome {
  if (!isWrapped(outputs)) return { rule, passed: false, reason: `rule '${rule}' could not be run as one jq expression` };
  const failed = outputs.find((o) => 'e' in o);
  if (failed) return { rule, passed: false, reason: `rule '${rule}' failed: ${failed.e}` };
  if (outputs.length !== 1) return { rule, passed: false, reason: `rule '${rule}' yielded ${outputs.length} values, expected one boolean` };
  const value = outputs[0].v;
  if (typeof value !== 'boolean') return { rule, passed: false, reason: `rule '${rule}' yielded ${shown(value)}, not a boolean` };
  return value ? { rule, passed: true } : { rule, passed: false, reason: `rule '${rule}' is false` };
}

/** A summary entry's value: its only output, an array of its outputs when several, null when none or failed. */
export function summaryValue(entry: SummaryExpression, outputs: unknown): SummaryValue {
  if (!isWrapped(outputs) || outputs.some((o) => 'e' in o) || outputs.length === 0) return { name: entry.name, value: null };
  return { name: entry.name, value: outputs.length === 1 ? outputs[0].v : outputs.map((o) => o.v) };
}

/**
 * Reads the combined program's output; null when it is not the expected shape (a rule stopped jq itself, with
 * `halt` for instance), in which case the caller runs the rules one by one.
 */
export function readCombined(
  stdout: string,
  rules: readonly string[],
  summary: readonly SummaryExpression[],
): { outcomes: RuleOutcome[]; summary: SummaryValue[] } | null {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    return null;
  }
  const { r, s } = (doc ?? {}) as { r?: unknown; s?: unknown };
  if (!Array.isArray(r) || r.length !== rules.length || !Array.isArray(s) || s.length !== summary.length) return null;
  return {
    outcomes: rules.map((rule, i) => judgeRule(rule, r[i])),
    summary: summary.map((entry, i) => summaryValue(entry, s[i])),
  };
}
