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
