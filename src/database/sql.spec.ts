import { ident, joinSql, placeholder, selectList, sql, toQuery, trusted } from './sql';

describe('sql fragments', () => {
  it('binds values and numbers them after the hand-written ones, through nested fragments', () => {
    const inner = sql`x.a = ${'one'} AND x.b = ${2}`;
    const outer = sql`SELECT * FROM t x WHERE x.org_id = $1 AND ${inner} OR x.c = ${true}`;
    expect(toQuery(outer, ['org'])).toEqual({
      text: 'SELECT * FROM t x WHERE x.org_id = $1 AND x.a = $2 AND x.b = $3 OR x.c = $4',
      values: ['org', 'one', 2, true],
    });
  });

  it('splices identifiers as text and refuses anything that is not one', () => {
    expect(sql`FROM ${ident('latest')} a`.text).toBe('FROM latest a');
    expect(() => ident('a; DROP TABLE x')).toThrow(/invalid SQL identifier/);
    expect(() => ident('A')).toThrow();
  });

  it('refuses the text of a fragment that binds values', () => {
    expect(() => sql`a = ${1}`.text).toThrow(/binds values/);
    expect(trusted('$3::int').text).toBe('$3::int');
  });

  it('joins fragments and keeps their values in order', () => {
    const joined = joinSql([sql`a = ${1}`, sql`b`, sql`c = ${3}`], ' AND ');
    expect(joined.render()).toBe('a = $1 AND b AND c = $2');
    expect(joined.values).toEqual([1, 3]);
    expect(joinSql([], ', ').text).toBe('');
  });

  it('renders a typed select list with aliases only where the expression does not already name the field', () => {
    const list = selectList<{ id: string; flow_name: string }>({ id: sql`a.id`, flow_name: sql`f.name` });
    expect(list.sql.text).toBe('a.id, f.name AS flow_name');
  });
});

describe('placeholder', () => {
  it('writes a hand-numbered parameter with an optional cast, and refuses anything else', () => {
    expect(placeholder(3, 'uuid').text).toBe('$3::uuid');
    expect(placeholder(1, 'text[]').text).toBe('$1::text[]');
    expect(placeholder(2).text).toBe('$2');
    expect(() => placeholder(0)).toThrow();
    expect(() => placeholder(1, "uuid; DROP TABLE x")).toThrow();
  });
});
