/**
 * Typed SQL fragments: the one way a module hands SQL to another (the ledger's moment numbering, the outbox's
 * event insert, the attestation columns a read model selects). A fragment is text plus the values it binds;
 * fragments compose with the `sql` tag, and an alias or column is an `SqlIdent` (checked once, when built), so
 * no caller splices a raw string into another module's statement. Typed column lists (`selectList`) are keyed
 * by the row type they read, so renaming a row field without its column is a compile error.
 *
 * Fragments are immutable: build the static ones once at module load and compose per request only what varies.
 * A statement that also writes its own `$1..$n` by hand renders with `toQuery(fragment, handValues)`: the
 * fragment's bound values are numbered after the hand-written ones, so a statement's text stays stable (it can
 * be a named prepared statement).
 */

/** A bound value inside a fragment (rendered as `$n`). */
class Bound {
  constructor(readonly value: unknown) {}
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/** An SQL identifier (table alias, CTE name or column name), checked when built. */
export class SqlIdent {
  readonly kind = 'ident' as const;
  constructor(readonly name: string) {
    if (!IDENT.test(name)) throw new Error(`invalid SQL identifier '${name}'`);
  }
}

export class Sql {
  /** `chunks[i]` text, then `slots[i]` (a bound value), ..., then the last text chunk. */
  private constructor(
    private readonly chunks: readonly string[],
    private readonly slots: readonly Bound[],
  ) {}

  static build(strings: readonly string[], args: readonly unknown[]): Sql {
    const chunks: string[] = [strings[0]];
    const slots: Bound[] = [];
    args.forEach((arg, i) => {
      if (arg instanceof Sql) {
        chunks[chunks.length - 1] += arg.chunks[0];
        for (let k = 0; k < arg.slots.length; k++) {
          slots.push(arg.slots[k]);
          chunks.push(arg.chunks[k + 1]);
        }
      } else if (arg instanceof SqlIdent) {
        chunks[chunks.length - 1] += arg.name;
      } else {
        slots.push(arg instanceof Bound ? arg : new Bound(arg));
        chunks.push('');
      }
      chunks[chunks.length - 1] += strings[i + 1];
    });
    return new Sql(chunks, slots);
  }

  /** The values this fragment binds, in order. */
  get values(): unknown[] {
    return this.slots.map((s) => s.value);
  }

  /** The text, numbering bound values from `$first`. */
  render(first = 1): string {
    let text = this.chunks[0];
    for (let i = 0; i < this.slots.length; i++) text += `$${first + i}${this.chunks[i + 1]}`;
    return text;
  }

  /** The text of a fragment that binds nothing (throws otherwise: its values would be lost). */
  get text(): string {
    if (this.slots.length) throw new Error('Sql.text: the fragment binds values; use toQuery');
    return this.chunks[0];
  }
}

/**
 * The tag: `${fragment}` splices a fragment (with its values), `${ident}` an identifier, anything else is
 * bound as a parameter.
 */
export function sql(strings: TemplateStringsArray, ...args: unknown[]): Sql {
  return Sql.build(strings, args);
}

/** An identifier (alias, CTE or column name). */
export function ident(name: string): SqlIdent {
  return new SqlIdent(name);
}

/** Fragments joined by `separator` (text, not a value). */
export function joinSql(parts: readonly Sql[], separator: string): Sql {
  if (!parts.length) return sql``;
  const strings = ['', ...parts.slice(1).map(() => separator), ''];
  return Sql.build(strings, parts);
}

/**
 * Text written by the owner of a statement (never user input): the one escape hatch, for constant text built
 * from code such as a parameter number or a list of casts. Not for values.
 */
export function trusted(text: string): Sql {
  return Sql.build([text], []);
}

const CAST = /^[a-z][a-z0-9_]*(\[\])?$/;

/**
 * A hand-written parameter of the enclosing statement (`$n`, with an optional cast such as `uuid` or
 * `text[]`): for a fragment that refers to a value the statement binds itself.
 */
export function placeholder(n: number, cast?: string): Sql {
  if (!Number.isInteger(n) || n < 1) throw new Error(`invalid parameter number ${n}`);
  if (cast !== undefined && !CAST.test(cast)) throw new Error(`invalid cast '${cast}'`);
  return Sql.build([cast ? `$${n}::${cast}` : `$${n}`], []);
}

/** `{text, values}` for a driver: the hand-written `$1..$n` values first, then the fragment's own. */
export function toQuery(fragment: Sql, handValues: readonly unknown[] = []): { text: string; values: unknown[] } {
  return { text: fragment.render(handValues.length + 1), values: [...handValues, ...fragment.values] };
}

/**
 * A typed select list: one SQL expression per field of `Row` (every field, no other), rendered as
 * `expr AS field` (just `expr` when it already ends in `.field`).
 */
export class SelectList<Row> {
  readonly sql: Sql;
  constructor(readonly columns: { readonly [K in keyof Row]-?: Sql }) {
    const parts = Object.entries(columns as Record<string, Sql>).map(([field, expr]) => {
      const text = expr.render();
      return text === field || text.endsWith(`.${field}`) ? expr : sql`${expr} AS ${ident(field)}`;
    });
    this.sql = joinSql(parts, ', ');
  }
}

export function selectList<Row>(columns: { readonly [K in keyof Row]-?: Sql }): SelectList<Row> {
  return new SelectList<Row>(columns);
}
