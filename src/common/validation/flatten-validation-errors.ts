import type { ValidationError as ClassValidatorError } from 'class-validator';
import { FieldErrors } from '../errors/app-error';
import { keyedMapProblems } from './keyed-map';

export const UNKNOWN_FIELD = 'unknown field: it is not part of this request';

/** `context.trails[0].flow`: array indexes in brackets, properties after dots. */
export function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/**
 * Turns class-validator's nested error tree into the spec's flat `errors` map. An unknown field is reported at
 * its own path ("should not exist"), so a client sees exactly which nested key was rejected.
 */
export function flattenValidationErrors(errors: ClassValidatorError[], prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  const visit = (list: ClassValidatorError[], parent: string) => {
    for (const error of list) {
      const path = joinPath(parent, error.property);
      const keyed = error.constraints && error.value !== undefined ? keyedMapProblems(error.constraints, error.value) : null;
      if (keyed) {
        // A map checked entry by entry (keyed-map.ts): each problem under its entry's path.
        for (const [key, message] of Object.entries(keyed)) out[key === '' ? path : `${path}.${key}`] = message;
      } else if (error.constraints) {
        const constraints = error.constraints;
        out[path] = constraints.whitelistValidation
          ? UNKNOWN_FIELD
          : error.value === undefined
            ? 'is required'
            : // Decorators apply bottom-up, so the last message is the first-declared (most basic) rule.
              stripProperty(Object.values(constraints).at(-1)!, error.property);
      }
      if (error.children?.length) visit(error.children, path);
    }
  };
  visit(errors, prefix);
  return out;
}

/** class-validator says "flow must match ..."; the key already names the field, so keep "must match ...". */
function stripProperty(message: string, property: string): string {
  return message.startsWith(property + ' ') ? message.slice(property.length + 1) : message;
}
