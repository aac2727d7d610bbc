import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The module rules of .dependency-cruiser.cjs, run by `npm test` through this spec: the real tree must pass
 * them, and planted violations of each rule must fail them (so the check cannot silently stop checking).
 */
const ROOT = path.resolve(__dirname, '../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

function cruise(cwd: string, paths: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [DEPCRUISE, ...paths, '--config', CONFIG, '--output-type', 'err'], {
    cwd,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A path into the flows module's internals (built, so that no scan of this file mistakes it for an import). */
const intoFlows = (folder: string, file: string) => ['..', 'flows', folder, file].join('/');

function write(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
}

describe('module boundaries', () => {
  it('the source tree follows every rule', () => {
    const { status, output } = cruise(ROOT, ['src', 'libs']);
    expect(output).toMatch(/no dependency violations found/);
    expect(status).toBe(0);
  });

  it('no feature module is global', () => {
    const modules: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.module.ts')) modules.push(full);
      }
    };
    walk(path.join(ROOT, 'src/modules'));
    expect(modules.length).toBeGreaterThan(5);
    const global = modules.filter((file) => /@Global\(\)/.test(fs.readFileSync(file, 'utf8')));
    expect(global.map((file) => path.relative(ROOT, file))).toEqual([]);
  });

  it('the feature modules the design names each have their folder and module file', () => {
    const named = ['evaluations', 'environments', 'attestations', 'trails', 'controls', 'tags', 'actions', 'service-accounts'];
    const missing = named.filter((name) => !fs.existsSync(path.join(ROOT, 'src/modules', name, `${name}.module.ts`)));
    expect(missing).toEqual([]);
  });

  it('a table is written only by its owner: service_accounts by the service-accounts module', () => {
    const writers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
          if (/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+service_accounts\b/i.test(fs.readFileSync(full, 'utf8'))) writers.push(path.relative(ROOT, full));
        }
      }
    };
    walk(path.join(ROOT, 'src'));
    expect(writers).toEqual(['src/modules/service-accounts/persistence/service-account.repository.ts']);
  });

  describe('planted violations fail the check, each by its rule', () => {
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-boundaries-'));
      write(dir, {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'es2022', strict: true } }),
        // a module entered properly, through its module file
        'src/modules/flows/flows.module.ts': `export { FlowDirectory } from './flow-directory';\n`,
        'src/modules/flows/flow-directory.ts': `export class FlowDirectory {}\n`,
        'src/modules/flows/persistence/flow.repository.ts': `export class FlowRepository {}\n`,
        'src/modules/flows/domain/template.ts': `export const EMPTY = {};\n`,
        'src/modules/trails/good.handler.ts': `import { FlowDirectory } from '../flows/flows.module';\nexport const ok = FlowDirectory;\n`,
        // reaches into another module's persistence/ and domain/
        'src/modules/trails/bad.handler.ts':
          `import { FlowRepository } from '${intoFlows('persistence', 'flow.repository')}';\n` +
          `import { EMPTY } from '${intoFlows('domain', 'template')}';\nexport const bad = [FlowRepository, EMPTY];\n`,
        // two modules that import each other
        'src/modules/a/a.module.ts': `import { b } from '../b/b.module';\nexport const a = () => b;\n`,
        'src/modules/b/b.module.ts': `import { a } from '../a/a.module';\nexport const b = () => a;\n`,
        // shared code depending on a feature module
        'src/common/helper.ts': `import { FlowDirectory } from '../modules/flows/flows.module';\nexport const h = FlowDirectory;\n`,
        // a rego library file importing the service
        'libs/rego/src/engine.ts': `import { h } from '../../../src/common/helper';\nexport const e = h;\n`,
        // the service past the Rego engine's front door, once by import and once by a lazy require
        'libs/rego/src/index.ts': `export const compile = 1;\n`,
        'libs/rego/src/value.ts': `export const fromJSON = 1;\n`,
        'src/modules/evaluations/rego.adapter.ts':
          `import { compile } from '../../../libs/rego/src';\n` +
          `export const ok = compile;\nexport const lazy = () => require('../../../libs/rego/src/value');\n`,
      });
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('names each broken rule and the file that broke it', () => {
      const { status, output } = cruise(dir, ['src', 'libs']);
      expect(status).not.toBe(0);
      expect(output).toContain('module-public-surface: src/modules/trails/bad.handler.ts → src/modules/flows/persistence/flow.repository.ts');
      expect(output).toContain('module-public-surface: src/modules/trails/bad.handler.ts → src/modules/flows/domain/template.ts');
      expect(output).toMatch(/no-circular: src\/modules\/(a\/a|b\/b)\.module\.ts/);
      expect(output).toContain('common-below-modules: src/common/helper.ts → src/modules/flows/flows.module.ts');
      expect(output).toContain('libs-stand-alone: libs/rego/src/engine.ts → src/common/helper.ts');
      expect(output).toContain('rego-front-door: src/modules/evaluations/rego.adapter.ts → libs/rego/src/value.ts');
      expect(output).not.toContain('rego.adapter.ts → libs/rego/src/index.ts');
      expect(output).not.toContain('src/modules/trails/good.handler.ts →');
    });
  });
});
