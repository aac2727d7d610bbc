/**
 * Renders engine errors as `<file>:<row>:<col>: <code>: <message>`, one line per error. The engine's own
 * message may already carry OPA's `<file>:<row>: <code>: ` prefix; it is stripped so the prefix is not doubled.
 */
export interface ErrorLike {
  code?: string;
  message?: string;
  /** RegoError's message without the location/code prefix. */
  detail?: string;
  location?: { file?: string; row?: number; col?: number };
  errors?: ErrorLike[];
}

export function formatErrors(err: unknown): string[] {
  const e = err as ErrorLike;
  if (e && Array.isArray(e.errors) && e.errors.length > 0) return e.errors.flatMap((x) => formatErrors(x));
  return [formatOne(e)];
}

function formatOne(e: ErrorLike): string {
  if (!e || typeof e !== 'object') return String(e);
  const code = e.code;
  let message = String(e.message ?? e);
  if (!code) return message;
  message = typeof e.detail === 'string' ? e.detail : stripPrefix(message, code);
  const loc = e.location;
  const where = loc && loc.file !== undefined ? `${loc.file}:${loc.row ?? 0}:${loc.col ?? 0}: ` : '';
  return `${where}${code}: ${message}`;
}

/** Removes a leading `[file:row[:col]: ]code: ` from a message. */
function stripPrefix(message: string, code: string): string {
  const at = message.indexOf(`${code}: `);
  if (at < 0) return message;
  const before = message.slice(0, at);
  // Only strip when what precedes the code looks like a location (or nothing), not arbitrary text.
  if (before === '' || /^.*:\d+(:\d+)?: $/.test(before)) return message.slice(at + code.length + 2);
  return message;
}
