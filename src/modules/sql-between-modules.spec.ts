import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * SQL crosses a module boundary only as a typed fragment (src/database/sql.ts): no module exports SQL as text
 * (a string constant, or a function or object method that builds SQL in an untagged string), and no module
 * imports such text from another. A statement spliced from another module's strings breaks at run time when a
 * column is renamed; a fragment built with the `sql` tag and typed select lists breaks at compile time.
 */
const MODULES = path.resolve(__dirname);

/** SQL text: a statement, a join or a select list naming qualified columns (the project writes keywords in capitals). */
const SQL_TEXT = /\b[a-z_]+\.[a-z_]+\s+AS\s+[a-z_]+\b|\bSELECT\s[\s\S]*\bFROM\b|\bINSERT\s+INTO\b|\bUPDATE\s+[a-z_]+\s+(?:[a-z]+\s+)?SET\b|\bDELETE\s+FROM\b|\bJOIN\s+[a-z_]+\b/;

/** True when `node` holds SQL in a string or template that is not the template of an `sql`-tagged fragment. */
function carriesSqlText(node: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isTaggedTemplateExpression(n) && n.tag.getText() === 'sql') {
      // the fragment's own text is fine; what it splices is checked
      if (ts.isTemplateExpression(n.template)) n.template.templateSpans.forEach((span) => visit(span.expression));
      return;
    }
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
      if (SQL_TEXT.test(n.text)) found = true;
      return;
    }
    if (ts.isTemplateExpression(n)) {
      const text = [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(' ');
      if (SQL_TEXT.test(text)) {
        found = true;
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

function parse(file: string, text = fs.readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
}

function resolve(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate)) return candidate;
  return null;
}

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/**
 * The names `source` exports that carry SQL as text (classes are not values that splice: a repository class
 * owning its SQL is the design), following `export { x } from` re-exports. `only` narrows to some names.
 */
export function sqlTextExports(source: ts.SourceFile, only?: ReadonlySet<string>, seen = new Set<string>()): string[] {
  if (seen.has(source.fileName)) return [];
  seen.add(source.fileName);
  const wanted = (name: string) => !only || only.has(name);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && wanted(d.name.text) && d.initializer && carriesSqlText(d.initializer)) out.push(d.name.text);
      }
    } else if (ts.isFunctionDeclaration(statement) && isExported(statement) && statement.name && wanted(statement.name.text)) {
      if (statement.body && carriesSqlText(statement.body)) out.push(statement.name.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) && !statement.isTypeOnly) {
      const target = resolve(source.fileName, statement.moduleSpecifier.text);
      if (!target || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
      const names = statement.exportClause.elements.filter((e) => !e.isTypeOnly && wanted(e.name.text)).map((e) => (e.propertyName ?? e.name).text);
      if (names.length) out.push(...sqlTextExports(parse(target), new Set(names), seen));
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) out.push(full);
  }
  return out;
}

const moduleOf = (file: string) => path.relative(MODULES, file).split(path.sep)[0];

describe('SQL crosses modules only as typed fragments', () => {
  it('no module facade exports SQL as text', () => {
    const facades = fs
      .readdirSync(MODULES, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) => fs.readdirSync(path.join(MODULES, e.name)).filter((f) => f.endsWith('.module.ts')).map((f) => path.join(MODULES, e.name, f)));
    expect(facades.length).toBeGreaterThan(10);
    const offenders = facades.flatMap((file) => sqlTextExports(parse(file)).map((name) => `${path.relative(MODULES, file)}: ${name}`));
    expect(offenders).toEqual([]);
  });

  it('no module imports SQL text from another module', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(MODULES)) {
      const source = parse(file);
      for (const statement of source.statements) {
        if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
        const bindings = statement.importClause?.namedBindings;
        if (statement.importClause?.isTypeOnly || !bindings || !ts.isNamedImports(bindings)) continue;
        const target = resolve(file, statement.moduleSpecifier.text);
        if (!target || !target.startsWith(MODULES + path.sep) || moduleOf(target) === moduleOf(file)) continue;
        const names = new Set(bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text));
        for (const name of sqlTextExports(parse(target), names)) offenders.push(`${path.relative(MODULES, file)} imports ${name}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('sees SQL text exported as a constant, a function or an object method, and lets typed fragments through', () => {
    const planted = parse(
      '/planted.ts',
      [
        'export const COLUMNS = `a.id, o.name AS org_name FROM attestations a JOIN flows f ON f.id = a.flow_id`;',
        "export const QUERY = 'SELECT id FROM trails WHERE org_id = $1';",
        "export const LIST = 'a.id, o.name AS org_name, f.name AS flow_name';",
        'export const Helper = { insert(select: string): string { return `INSERT INTO outbox_events (org_id) ${select}`; } };',
        'export function where(alias: string): string { return `UPDATE trails t SET x = 1 WHERE ${alias}.id = t.id`; }',
        'export const TYPED = sql`SELECT a.id FROM attestations a JOIN flows f ON f.id = a.flow_id`;',
        'export function typed(alias: SqlIdent): Sql { return sql`INSERT INTO trail_moments (org_id) SELECT ${alias}.org_id FROM ${alias}`; }',
        "export const MESSAGE = 'select a flow from the list';",
        'export class Repository { q = `SELECT 1 FROM trails`; }',
      ].join('\n'),
    );
    expect(sqlTextExports(planted).sort()).toEqual(['COLUMNS', 'Helper', 'LIST', 'QUERY', 'where']);
  });
});
