import { FieldErrors } from '../errors/app-error';
import { joinPath } from './flatten-validation-errors';

/**
 * PostgreSQL cannot store two things a JSON string or a URL can carry: the NUL character (text refuses it,
 * jsonb refuses `\u0000`) and a UTF-16 surrogate without its pair (jsonb refuses the escape; text would turn it
 * into U+FFFD, silently changing what was sent). Any request text, at any depth, with either is refused at the
 * edge, naming the field, instead of failing in the database.
 */
const SUSPECT = /[\u0000\ud800-\udfff]/;
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT = 'must not contain NUL characters or unpaired UTF-16 surrogates';

export function isStorableText(text: string): boolean {
  return !SUSPECT.test(text) || !UNSTORABLE.test(text);
}

/**
 * The paths (`prefix`, then `a.b[0]`) of every string in `value`, and every object key, that cannot be stored.
 * A key that cannot be stored is reported at its parent's path with the key's printable form.
 */
export function unstorableText(value: unknown, prefix = ''): FieldErrors {
  const errors: FieldErrors = {};
  // An explicit stack: a deeply nested document must not overflow the call stack here.
  const stack: [unknown, string][] = [[value, prefix]];
  while (stack.length) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) errors[path || 'body'] = UNSTORABLE_TEXT;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], joinPath(path, String(i))]);
    } else if (current !== null && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        if (!isStorableText(key)) {
          errors[joinPath(path, JSON.stringify(key).slice(1, -1))] = UNSTORABLE_TEXT;
          continue;
        }
        stack.push([(current as Record<string, unknown>)[key], joinPath(path, key)]);
      }
    }
  }
  return errors;
}
