import { ValidationError } from '../../../../common/errors/app-error';
import { UNKNOWN_FIELD } from '../../../../common/validation/flatten-validation-errors';
import { isPlainObject as isObject } from '../../../../common/validation/plain-object';

/**
 * A few words of JSON shape checking for the parts of a `data_json` whose reference schema is a union or open
 * (`pull_requests[]` items are one of two shapes; `sonar_results` takes extra fields as SonarQube adds them),
 * which class-validator DTOs cannot state. Errors are keyed by path (`pull_requests[0].url`), like the DTOs'.
 */
export type Shape = (value: unknown, path: string, errors: Record<string, string>) => void;


export const str: Shape = (v, path, errors) => {
  if (typeof v !== 'string') errors[path] = 'must be a string';
};
export const num: Shape = (v, path, errors) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) errors[path] = 'must be a number';
};
export const bool: Shape = (v, path, errors) => {
  if (typeof v !== 'boolean') errors[path] = 'must be a boolean';
};
export const pattern =
  (re: RegExp, what: string): Shape =>
  (v, path, errors) => {
    if (typeof v !== 'string' || !re.test(v)) errors[path] = `must be ${what}`;
  };
export const nullable =
  (shape: Shape): Shape =>
  (v, path, errors) => {
    if (v !== null) shape(v, path, errors);
  };
export const anyOf =
  (what: string, ...shapes: Shape[]): Shape =>
  (v, path, errors) => {
    for (const shape of shapes) {
      const e: Record<string, string> = {};
      shape(v, path, e);
      if (!Object.keys(e).length) return;
    }
    errors[path] = `must be ${what}`;
  };
export const arrayOf =
  (item: Shape): Shape =>
  (v, path, errors) => {
    if (!Array.isArray(v)) {
      errors[path] = 'must be an array';
      return;
    }
    v.forEach((x, i) => item(x, `${path}[${i}]`, errors));
  };
export const anyObject: Shape = (v, path, errors) => {
  if (!isObject(v)) errors[path] = 'must be an object';
};

/** An object: `required` and `optional` fields (undefined is absent); others are 400 unless `open`. */
export function object(required: Record<string, Shape>, optional: Record<string, Shape> = {}, open = false): Shape {
  return (v, path, errors) => {
    if (!isObject(v)) {
      errors[path] = 'must be an object';
      return;
    }
    const at = (k: string) => (path ? `${path}.${k}` : k);
    for (const [k, shape] of Object.entries(required)) {
      if (v[k] === undefined) errors[at(k)] = 'is required';
      else shape(v[k], at(k), errors);
    }
    for (const [k, shape] of Object.entries(optional)) if (v[k] !== undefined) shape(v[k], at(k), errors);
    if (!open) for (const k of Object.keys(v)) if (!(k in required) && !(k in optional)) errors[at(k)] = UNKNOWN_FIELD;
  };
}

/** Checks `value` and throws the 400 with every error found. */
export function checkShape(shape: Shape, value: unknown, path: string): void {
  const errors: Record<string, string> = {};
  shape(value, path, errors);
  if (Object.keys(errors).length) throw new ValidationError(errors);
}
