import * as fs from 'node:fs';
import * as path from 'node:path';
import { readAtQuery, TRAIL_STATE_READS } from './trail-state.reader';

/** The tables a piece of SQL text reads: what follows FROM or JOIN, less the names its WITH clauses define. */
export function tablesRead(text: string): string[] {
  const sql = text.replace(/\bEXTRACT\s*\(\s*\w+\s+FROM\b/gi, 'EXTRACT(');
  const ctes = new Set([...sql.matchAll(/\b([a-z_][a-z0-9_]*)\s+AS\s+(?:(?:NOT\s+)?MATERIALIZED\s+)?\(/gi)].map((m) => m[1].toLowerCase()));
  const named = [...sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_][a-z0-9_]*)\b(?!\s*[.(])/gi)].map((m) => m[1].toLowerCase());
  return [...new Set(named.filter((name) => !ctes.has(name)))].sort();
}

describe('the trail-state read model declares what it reads', () => {
  // The file's own SQL, plus the statement it builds (which splices other modules' typed fragments, such as
  // the attestation select list, whose tables count as read here too).
  const source =
    fs.readFileSync(path.join(__dirname, 'trail-state.reader.ts'), 'utf8') +
    '\n' +
    readAtQuery('00000000-0000-0000-0000-000000000000', 'f', 't', { kind: 'now' }).sql;

  it('reads exactly the tables TRAIL_STATE_READS lists, each owned by another module or by the ledger', () => {
    expect(tablesRead(source)).toEqual(Object.keys(TRAIL_STATE_READS).sort());
  });

  it('writes none of them', () => {
    expect(source).not.toMatch(/\b(INSERT\s+INTO|UPDATE\s+[a-z_]+\s+SET|DELETE\s+FROM)\b/i);
  });

  it('the table check sees a table added to the SQL (so it cannot silently stop checking)', () => {
    expect(tablesRead('WITH x AS (SELECT 1 FROM trails t) SELECT * FROM x JOIN controls c ON true')).toEqual(['controls', 'trails']);
    expect(tablesRead('SELECT EXTRACT(EPOCH FROM created_at) FROM attestations a')).toEqual(['attestations']);
  });
});
