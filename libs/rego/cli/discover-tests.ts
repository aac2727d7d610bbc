/**
 * Finds the `test_*` rules of each module, as `opa test` does: rules (not functions) whose name starts with
 * `test_`, referred to as `data.<package>.<name>`, and parameterized tests (`test_name[case] if { ... }`, one
 * test with a sub-result per case). Uses the engine's parser; a module it cannot parse (already reported by
 * compile) falls back to a text scan of rule heads at column 0. Rules defined several times are one test.
 */
import { parseModule } from '../src';
import { testCaseTerms } from '../src/compiler/test-cases';

export interface DiscoveredTest {
  ref: string; // data.<package>.<rule>
  file: string;
  row: number;
  /** a parameterized test: its value is an object of cases (see compiler/test-cases.ts) */
  parameterized?: boolean;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function refOf(path: string[], rule: string): string {
  return ['data', ...path].map((s, i) => (i === 0 || IDENT.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`)).join('') + `.${rule}`;
}

export function discoverTests(files: Record<string, string>, regoVersion: 0 | 1 = 1, fileRegoVersions: Record<string, 0 | 1> = {}): DiscoveredTest[] {
  const seen = new Set<string>();
  const tests: DiscoveredTest[] = [];
  const add = (ref: string, file: string, row: number, parameterized = false) => {
    if (seen.has(ref)) return;
    seen.add(ref);
    tests.push(parameterized ? { ref, file, row, parameterized } : { ref, file, row });
  };
  for (const file of Object.keys(files).sort()) {
    let parsed: ReturnType<typeof parseModule> | undefined;
    try {
      parsed = parseModule(files[file], file, { regoVersion: fileRegoVersions[file] ?? regoVersion });
    } catch {
      parsed = undefined;
    }
    if (parsed) {
      for (const rule of parsed.rules) {
        const head = rule.head;
        const first = head.ref[0];
        if (head.args || first.type !== 'var' || !first.name.startsWith('test_')) continue;
        const parameterized = testCaseTerms(rule) !== undefined;
        if (head.ref.length !== 1 && !parameterized) continue;
        add(refOf(parsed.package.path, first.name), file, rule.loc.row, parameterized);
      }
    } else scanText(files[file], file, add);
  }
  return tests;
}

function scanText(src: string, file: string, add: (ref: string, file: string, row: number) => void): void {
  const lines = src.split(/\r?\n/);
  let pkg: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (pkg === undefined) {
      const m = /^\s*package\s+([^\s#]+)/.exec(lines[i]);
      if (m) pkg = m[1];
      continue;
    }
    const m = /^(test_[A-Za-z0-9_]*)(?![A-Za-z0-9_])\s*(.?)/.exec(lines[i]);
    // A `(` after the name makes it a function: not a test.
    if (m && m[2] !== '(') add(`data.${pkg}.${m[1]}`, file, i + 1);
  }
}
