import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { isPlainObject } from '../validation/plain-object';

const FINGERPRINT = /^[a-f0-9]{64}$/;
const ANNOTATION_KEY = /^[A-Za-z0-9_-]+$/;


/** Returns a message for the first problem, or null. */
export function externalUrlsProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be an object mapping a label to a URL string or {href, fingerprint?}';
  for (const [label, entry] of Object.entries(value)) {
    if (!label || label.includes('=') || label.includes('.')) return `label '${label}' must not be empty or contain '=' or '.'`;
    if (typeof entry === 'string') continue;
    if (!isPlainObject(entry)) return `'${label}' must be a URL string or {href, fingerprint?}`;
    for (const key of Object.keys(entry)) {
      if (key !== 'href' && key !== 'fingerprint') return `'${label}.${key}' is an unknown field`;
    }
    if (typeof entry.href !== 'string') return `'${label}.href' must be a string`;
    if (entry.fingerprint !== undefined && entry.fingerprint !== null && !(typeof entry.fingerprint === 'string' && FINGERPRINT.test(entry.fingerprint))) {
      return `'${label}.fingerprint' must be 64 lowercase hex characters`;
    }
  }
  return null;
}

/** `external_urls`: label -> URL string, or label -> {href, fingerprint?} (the form the open-source CLI sends). */
export function IsExternalUrls(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isExternalUrls',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => externalUrlsProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => externalUrlsProblem(args?.value) ?? 'is invalid',
      },
    });
}

/** `annotations`: key (letters, digits, '_', '-') -> string. */
export function IsAnnotations(options?: ValidationOptions): PropertyDecorator {
  const problem = (value: unknown): string | null => {
    if (!isPlainObject(value)) return 'must be an object mapping a key to a string';
    for (const [key, entry] of Object.entries(value)) {
      if (!ANNOTATION_KEY.test(key)) return `key '${key}' must match ${ANNOTATION_KEY}`;
      if (typeof entry !== 'string') return `'${key}' must be a string`;
    }
    return null;
  };
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isAnnotations',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? 'is invalid',
      },
    });
}

/** `user_data`: any JSON object or array. */
export function IsObjectOrArray(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isObjectOrArray',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'object' && value !== null,
        defaultMessage: () => 'must be a JSON object or array',
      },
    });
}

/** Normalises both `external_urls` forms to `{label: {href, fingerprint?}}` for storage. */
export function normaliseExternalUrls(value: Record<string, unknown> | null | undefined): Record<string, { href: string; fingerprint?: string }> {
  const out: Record<string, { href: string; fingerprint?: string }> = {};
  for (const [label, entry] of Object.entries(value ?? {})) {
    if (typeof entry === 'string') out[label] = { href: entry };
    else {
      const e = entry as { href: string; fingerprint?: string | null };
      out[label] = e.fingerprint ? { href: e.href, fingerprint: e.fingerprint } : { href: e.href };
    }
  }
  return out;
}
