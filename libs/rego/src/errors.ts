/** Coded errors as OPA reports them: `<file>:<row>: <code>: <message>`. */

export interface Location {
  file: string;
  row: number;
  col: number;
}

export type ErrorCode =
  | 'rego_parse_error'
  | 'rego_compile_error'
  | 'rego_type_error'
  | 'rego_unsafe_var_error'
  | 'rego_recursion_error'
  | 'eval_conflict_error'
  | 'eval_type_error'
  | 'eval_builtin_error'
  | 'policy_timeout'
  | 'policy_resource_limit';

export class RegoError extends Error {
  readonly code: string;
  readonly location?: Location;
  /** The message without location and code prefix. */
  readonly detail: string;

  constructor(code: string, detail: string, location?: Location) {
    super(formatMessage(code, detail, location));
    this.code = code;
    this.detail = detail;
    this.location = location;
    this.name = 'RegoError';
  }
}

/** Several compile errors at once (OPA reports them together); `code` is that of the first. */
export class RegoErrors extends RegoError {
  readonly errors: RegoError[];

  constructor(errors: RegoError[]) {
    super(errors[0].code, errors[0].detail, errors[0].location);
    this.errors = errors;
    this.name = 'RegoErrors';
    if (errors.length > 1) {
      this.message = `${errors.length} errors occurred:\n` + errors.map((e) => e.message).join('\n');
    }
  }
}

export function formatMessage(code: string, detail: string, loc?: Location): string {
  return loc ? `${loc.file}:${loc.row}: ${code}: ${detail}` : `${code}: ${detail}`;
}

/**
 * Whether a JS exception is the JS engine running out of room (stack, string or array length, Map size, BigInt
 * size, allocation) rather than a fault of the value computed. Go has none of these limits, so such an error is
 * never OPA's answer: the evaluation halts with policy_resource_limit wherever it happens, inside a builtin too.
 */
export function isJsResourceError(e: unknown): e is RangeError {
  return (
    e instanceof RangeError &&
    /call stack|Invalid (array|string|typed array) length|maximum size exceeded|Maximum BigInt size|allocation failed|out of memory/i.test(e.message)
  );
}
