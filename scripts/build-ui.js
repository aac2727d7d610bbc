#!/usr/bin/env node
// Builds the web interface (web/) into dist/ui: one script and one style file, minified, with content hashes in
// their names, and manifest.json naming them (the server reads it). Part of `npm run build`.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const out = path.join(root, 'dist', 'ui');

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: { app: path.join(root, 'web', 'main.ts'), style: path.join(root, 'web', 'style.css') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox115', 'safari16'],
    outdir: path.join(out, 'assets'),
    entryNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  const names = Object.keys(result.metafile.outputs).map((f) => path.relative(out, path.join(root, f)).split(path.sep).join('/'));
  const manifest = {
    js: names.find((n) => /^assets\/app-[^/]+\.js$/.test(n)),
    css: names.find((n) => /^assets\/style-[^/]+\.css$/.test(n)),
  };
  if (!manifest.js || !manifest.css) throw new Error(`build-ui: unexpected outputs ${names.join(', ')}`);
  fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
