/**
 * Whether a query is a single reference (`data.policy`, `input.x`, `data.a["b-c"][0]`), whose answer is a value,
 * rather than a general query whose answer is binding rows. Shared by the sandbox and the CLI.
 */
const REF_QUERY = /^\s*(data|input)(\.[A-Za-z_][A-Za-z0-9_]*|\[\s*("(?:[^"\\]|\\.)*"|\d+)\s*\])*\s*$/;

export function isRefQuery(query: string): boolean {
  return REF_QUERY.test(query);
}
