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

/**
 * How deeply a request's JSON document may nest (objects and arrays). Validation and PostgreSQL's JSON code both
 * recurse, and a few thousand levels overflow the stack; no document of this API needs more than a handful,
 * and free-form data (`user_data` ...) gets ample room.
 */
export const MAX_DOCUMENT_DEPTH = 64;
export const TOO_DEEP = `must not nest more than ${MAX_DOCUMENT_DEPTH} levels deep`;

export function isStorableText(text: string): boolean {
  return !SUSPECT.test(text) || !UNSTORABLE.test(text);
}

/**
 * What no request document may hold, by path (`prefix`, then `a.b[0]`): every string and object key that
 * cannot be stored (a key is reported at its parent's path with the key's printable form), and the first
 * collection nested deeper than MAX_DOCUMENT_DEPTH (reported at the path where the limit is crossed).
 */
export function unstorableText(value: unknown, prefix = ''): FieldErrors {
  const errors: FieldErrors = {};
  let tooDeep = false;
  // An explicit stack: a deeply nested document must not overflow the call stack here.
  const stack: [unknown, string, number][] = [[value, prefix, 0]];
  while (stack.length) {
    const [current, path, depth] = stack.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) errors[path || 'body'] = UNSTORABLE_TEXT;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_DOCUMENT_DEPTH) {
      if (!tooDeep) errors[path || 'body'] = TOO_DEEP;
      tooDeep = true;
      continue;
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], joinPath(path, String(i)), depth + 1]);
    } else {
      for (const key of Object.keys(current)) {
        if (!isStorableText(key)) {
          errors[joinPath(path, JSON.stringify(key).slice(1, -1))] = UNSTORABLE_TEXT;
          continue;
        }
        stack.push([(current as Record<string, unknown>)[key], joinPath(path, key), depth + 1]);
      }
    }
  }
  return errors;
}
