/**
 * Errors a builtin raises. Messages exclude the builtin's name: the evaluator reports them as OPA does,
 * `<name>: <message>` with code eval_type_error (BuiltinTypeError) or eval_builtin_error (BuiltinError), and
 * decides between "undefined" and an error according to strict_builtin_errors.
 */
export class BuiltinError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuiltinError';
  }
}

/** Wrong operand type at runtime, e.g. `operand 1 must be string but got number`. */
export class BuiltinTypeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuiltinTypeError';
  }
}

/**
 * Errors that OPA raises even when strict_builtin_errors is off (e.g. http.send refusing, or
 * halt errors); the evaluator must always surface these.
 */
export class BuiltinHaltError extends BuiltinError {
  constructor(message: string) {
    super(message);
    this.name = 'BuiltinHaltError';
  }
}

/**
 * A protection the engine imposes, not OPA's semantics: a builtin refuses work that would exhaust the process
 * (OPA itself has no such cap). It never makes a call undefined, whatever strict_builtin_errors says: the
 * evaluator halts the whole evaluation with policy_resource_limit, as it does for the deadline and the heap cap,
 * so a cap can never turn into an answer.
 */
export class BuiltinLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuiltinLimitError';
  }
}
