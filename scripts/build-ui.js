#!/usr/bin/env node
// Builds the web interface (web/) into dist/ui: one script and one style file, minified, with content hashes in
// their names, and manifest.json naming them (the server reads it). Part of `npm run build`.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const out = path.join(root, 'dist', 'ui');

async function main() {
  // The previous build's files stay until the next build: a page loaded before a restart still finds its script.
  const previous = readManifest();
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
  const keep = new Set([manifest.js, manifest.css, ...(previous ? [previous.js, previous.css] : [])].map((f) => path.basename(f)));
  for (const file of fs.readdirSync(path.join(out, 'assets'))) if (!keep.has(file)) fs.rmSync(path.join(out, 'assets', file));
}

function readManifest() {
  try {
    return JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
