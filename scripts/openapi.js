#!/usr/bin/env node
/**
 * Saves the API description of a running Veritrail (OpenAPI 3.1, JSON), for client generators and linters.
 *
 *   npm run openapi -- [file]      (stdout without a file)
 *
 * The service URL comes from VERITRAIL_URL (default http://localhost:$PORT or 8080). No credential: the
 * description is public.
 */
'use strict';
const fs = require('node:fs');

async function main() {
  const base = (process.env.VERITRAIL_URL || `http://localhost:${process.env.PORT || 8080}`).replace(/\/+$/, '');
  const res = await fetch(`${base}/api/v2/openapi.json`);
  if (!res.ok) throw new Error(`GET ${base}/api/v2/openapi.json answered ${res.status}`);
  const text = JSON.stringify(await res.json(), null, 2) + '\n';
  const file = process.argv[2];
  if (file) fs.writeFileSync(file, text);
  else process.stdout.write(text);
}

main().catch((error) => {
  console.error(`error: ${error.message}`);
  process.exit(1);
});
