import { RegoError } from '../errors';
import { parseModule, parseQuery, parseTerm } from './parser';

describe('parser', () => {
  it('parses package, imports and the kinds of rules', () => {
    const m = parseModule(
      `package acme.gate

import rego.v1
import data.lib.util as u
import input.request

default allow := false

allow if input.user == "root"

names contains n if some n in input.names

by_id[id] := x if {
  some x in input.items
  id := x.id
}

a.b.c := 1

double(x) := y if y := x * 2

grade(s) := "A" if s > 90 else := "B" if s > 80 else := "C"
`,
      'gate.rego',
    );
    expect(m.package.path).toEqual(['acme', 'gate']);
    expect(m.imports.map((i) => i.alias)).toEqual([undefined, 'u', undefined]);
    expect(m.rules).toHaveLength(7);
    const names = m.rules[2];
    expect(names.head.contains).toBe(true);
    const byId = m.rules[3];
    expect(byId.head.ref).toHaveLength(2);
    const grade = m.rules[6];
    expect(grade.else?.else).toBeDefined();
    expect(m.rules[1].loc).toEqual({ file: 'gate.rego', row: 9, col: 1 });
  });

  it('gives operators OPA precedence', () => {
    const t = parseTerm('1 + 2 * 3 == 7');
    expect(t.type).toBe('call');
    if (t.type !== 'call') return;
    expect(t.op.terms[0]).toMatchObject({ name: 'equal' });
    const lhs = t.args[0];
    expect(lhs.type === 'call' && (lhs.op.terms[0] as { name: string }).name).toBe('plus');
  });

  it('parses comprehensions, sets and objects', () => {
    expect(parseTerm('[x | x := input[_]]').type).toBe('arraycomp');
    expect(parseTerm('{x | some x in [1]}').type).toBe('setcomp');
    expect(parseTerm('{k: v | some k, v in {"a": 1}}').type).toBe('objectcomp');
    expect(parseTerm('{1, 2}').type).toBe('set');
    expect(parseTerm('{}').type).toBe('object');
    expect(parseTerm('set()').type).toBe('set');
    expect(parseTerm('[1, 2] | [3]').type).toBe('call');
  });

  it('parses some/every/not/with literals', () => {
    const body = parseQuery('some x in xs; every y in ys { y > 1 }; not p; q with input as {} with f as g');
    expect(body.map((e) => e.kind)).toEqual(['somein', 'every', 'term', 'term']);
    expect(body[2].negated).toBe(true);
    expect(body[3].with).toHaveLength(2);
    const kv = parseQuery('some k, v in obj')[0];
    expect(kv.kind === 'somein' && kv.key).toBeTruthy();
  });

  it('keeps big integers exact', () => {
    expect(parseTerm('12345678901234567890')).toMatchObject({ value: 12345678901234567890n });
    expect(parseTerm('1e30')).toMatchObject({ value: 10n ** 30n });
    expect(parseTerm('-2.5')).toMatchObject({ value: -2.5 });
  });

  it('reports parse errors with location', () => {
    const cases = ['package p\n\np if {\n  x := \n}', 'package p\np { true }', 'p := 1', 'package p\nx := "unterminated'];
    for (const src of cases) {
      try {
        parseModule(src, 'bad.rego');
        throw new Error('expected a parse error for ' + src);
      } catch (e) {
        expect(e).toBeInstanceOf(RegoError);
        expect((e as RegoError).code).toBe('rego_parse_error');
        expect((e as RegoError).message).toMatch(/^bad\.rego:\d+: rego_parse_error: /);
      }
    }
  });

  it('reads METADATA annotations', () => {
    const m = parseModule(
      `# METADATA
# title: Gate
# scope: package
package gate

# METADATA
# title: Allow
# custom:
#   severity: high
allow := true
`,
      'm.rego',
    );
    expect(m.annotations[0].fields.title).toBe('Gate');
    expect(m.rules[0].annotations?.[0].fields).toMatchObject({ title: 'Allow', custom: { severity: 'high' } });
  });
});
