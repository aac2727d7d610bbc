/**
 * Why an evaluation failed. Every kind but `service_error` is the policy author's to fix; `service_error` is the
 * service's own fault and is never used for a problem of the policy.
 */
export type EvaluationErrorKind =
  | 'policy_parse_error'
  | 'policy_compile_error'
  | 'policy_runtime_error'
  | 'policy_timeout'
  | 'policy_resource_limit'
  | 'policy_output_invalid'
  | 'service_error';

export interface EvaluationError {
  kind: EvaluationErrorKind;
  message: string;
}

/** The engine's error codes, by kind. A code not listed is the service's fault. */
const KIND_OF_CODE: Record<string, EvaluationErrorKind> = {
  rego_parse_error: 'policy_parse_error',
  rego_compile_error: 'policy_compile_error',
  rego_type_error: 'policy_compile_error',
  rego_unsafe_var_error: 'policy_compile_error',
  rego_recursion_error: 'policy_compile_error',
  eval_conflict_error: 'policy_runtime_error',
  eval_type_error: 'policy_runtime_error',
  eval_builtin_error: 'policy_runtime_error',
  policy_timeout: 'policy_timeout',
  policy_resource_limit: 'policy_resource_limit',
};

export function kindOfEngineCode(code: string): EvaluationErrorKind {
  return KIND_OF_CODE[code] ?? 'service_error';
}

/** A problem of the policy bundle itself, found before it runs. */
export class PolicyBundleError extends Error {
  constructor(
    readonly kind: EvaluationErrorKind,
    message: string,
  ) {
    super(message);
  }
}
