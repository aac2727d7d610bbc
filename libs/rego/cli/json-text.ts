/**
 * JSON text for values the engine hands back. JSON.stringify throws on bigint (integers beyond 2^53, which the
 * engine keeps exact), so this printer writes them as plain digits, as OPA prints big integers.
 */
export function jsonText(value: unknown, indent = 2): string {
  return write(value, indent, '');
}

function write(v: unknown, indent: number, pad: string): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'bigint':
      return v.toString();
    case 'string':
      return JSON.stringify(v);
    case 'object':
      break;
    default:
      return 'null';
  }
  const inner = indent > 0 ? pad + ' '.repeat(indent) : '';
  const nl = indent > 0 ? '\n' : '';
  const sep = indent > 0 ? ': ' : ':';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${nl}${v.map((x) => inner + write(x, indent, inner)).join(',' + nl)}${nl}${pad}]`;
  }
  const asJson = (v as { toJSON?: () => unknown }).toJSON;
  if (typeof asJson === 'function') return write(asJson.call(v), indent, pad);
  // Sorted like OPA's output, so the text is stable whatever order the engine built the object in.
  const keys = Object.keys(v as object).sort();
  if (keys.length === 0) return '{}';
  const o = v as Record<string, unknown>;
  return `{${nl}${keys.map((k) => inner + JSON.stringify(k) + sep + write(o[k], indent, inner)).join(',' + nl)}${nl}${pad}}`;
}
