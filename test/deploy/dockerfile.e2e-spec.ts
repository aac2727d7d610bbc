import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { renderKustomization } from '../support/kustomize';

/**
 * No docker engine runs here, so the Dockerfile is kept honest by what can be checked without one, against the
 * build `npm test` has just made: what it copies exists, what it runs was built, the built code needs nothing the
 * image leaves out, and it agrees with the manifests in deploy/k8s.
 */
const ROOT = path.resolve(__dirname, '../..');
const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => {
    const [op, ...rest] = l.split(/\s+/);
    return { op: op.toUpperCase(), args: rest.join(' ') };
  });
const stages = instructions.reduce<(typeof instructions)[]>((acc, i) => (i.op === 'FROM' ? [...acc, [i]] : (acc[acc.length - 1].push(i), acc)), []);
const runtime = stages[stages.length - 1];
const dockerignore = fs
  .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter(Boolean);
const objects = renderKustomization(path.join(ROOT, 'deploy/k8s/base'));
const pods = objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job').map((o) => (o as any).spec.template.spec);

function builtFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? builtFiles(full) : e.name.endsWith('.js') ? [full] : [];
  });
}

describe('Dockerfile', () => {
  it('copies only paths that exist in the repository and are sent to the build (not in .dockerignore)', () => {
    const sources = instructions
      .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'src', 'libs', 'scripts']));
    const missing = sources.filter((s) => !fs.existsSync(path.join(ROOT, s)));
    const ignored = sources.filter((s) => dockerignore.some((pattern) => s === pattern || s.startsWith(pattern + '/')));
    expect({ missing, ignored }).toEqual({ missing: [], ignored: [] });
  });

  it('builds with the same command as the repository and runs files that build produces', () => {
    const build = stages[0];
    expect(build.map((i) => i.args)).toContain('npm run build');
    const cmd = JSON.parse(runtime.find((i) => i.op === 'CMD')!.args);
    const jobCommand = (objects.find((o) => o.kind === 'Job') as any).spec.template.spec.containers[0].command;
    // The runtime stage copies /app/dist of the build stage to ./dist, where the package's own scripts look.
    expect(runtime.find((i) => i.op === 'COPY' && i.args.startsWith('--from'))!.args).toBe('--from=build /app/dist ./dist');
    for (const [node, file] of [cmd, jobCommand]) {
      expect(node).toBe('node');
      expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
    }
    expect(cmd[1]).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts['start:prod'].split(' ')[1]);
    // The evaluation sandbox starts its worker threads from this file at run time.
    expect(fs.existsSync(path.join(ROOT, 'dist/libs/rego/src/sandbox/worker.js'))).toBe(true);
  });

  it('installs production dependencies only, and the built code requires nothing else', () => {
    expect(runtime.map((i) => i.args)).toContain('npm ci --omit=dev && npm cache clean --force');
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const production = new Set(Object.keys(pkg.dependencies));
    const needed = new Map<string, string>();
    for (const file of [...builtFiles(path.join(ROOT, 'dist/src')), ...builtFiles(path.join(ROOT, 'dist/libs')), ...builtFiles(path.join(ROOT, 'scripts'))]) {
      // Test and tooling code is excluded from the build (tsconfig.build.json); this checks what remains.
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/require\(["']([^"'./][^"']*)["']\)/g)) {
        const name = m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0];
        if (!builtinModules.includes(name.replace(/^node:/, '')) && !name.startsWith('node:')) needed.set(name, path.relative(ROOT, file));
      }
    }
    expect([...needed].filter(([name]) => !production.has(name)).map(([name, file]) => `${name} (${file})`)).toEqual([]);
    expect(needed.has('pg')).toBe(true);
  });

  it('runs as the numeric non-root user and on the port the Kubernetes manifests expect', () => {
    const user = runtime.find((i) => i.op === 'USER')!.args;
    expect(user).toMatch(/^[1-9]\d*$/);
    for (const pod of pods) expect(pod.securityContext.runAsUser).toBe(Number(user));
    const port = (objects.find((o) => o.kind === 'ConfigMap') as any).data.PORT;
    expect(runtime.find((i) => i.op === 'EXPOSE')!.args).toBe(port);
    expect(runtime.find((i) => i.op === 'ENV')!.args).toContain(`PORT=${port}`);
  });
});
