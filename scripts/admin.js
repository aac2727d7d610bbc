#!/usr/bin/env node
/**
 * Operator commands for a running Veritrail (wraps the /api/v2/admin routes).
 *
 *   npm run admin -- create-org <name> --admin-email <email> [--features evaluations,trail_moments] [--region eu]
 *   npm run admin -- set-features <org> <feature,feature,...>      (empty string clears them)
 *   npm run admin -- add-member <org> <email> <admin|member|snapshotter|reader>
 *
 * The service URL comes from VERITRAIL_URL (default http://localhost:$PORT or 8080); the operator token from
 * ADMIN_TOKEN, else from $DATA_DIR/admin-token (default ./.data/admin-token), written by the first start.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function usage(message) {
  if (message) console.error(`error: ${message}\n`);
  console.error(
    [
      'usage:',
      '  npm run admin -- create-org <name> --admin-email <email> [--features a,b] [--region eu|us]',
      '  npm run admin -- set-features <org> <feature,feature,...>',
      '  npm run admin -- add-member <org> <email> <admin|member|snapshotter|reader>',
    ].join('\n'),
  );
  process.exit(2);
}

function parse(argv) {
  const positional = [];
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2);
      flags[name] = inline !== undefined ? inline : argv[++i];
      if (flags[name] === undefined) usage(`--${name} needs a value`);
    } else positional.push(arg);
  }
  return { positional, flags };
}

function operatorToken() {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = path.resolve(process.env.DATA_DIR || '.data', 'admin-token');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    usage(`no ADMIN_TOKEN set and ${file} cannot be read (start the service once first)`);
  }
}

function list(value) {
  return value ? value.split(',').map((s) => s.trim()).filter(Boolean) : [];
}

async function call(method, route, body) {
  const base = (process.env.VERITRAIL_URL || `http://localhost:${process.env.PORT || 8080}`).replace(/\/+$/, '');
  let res;
  try {
    res = await fetch(`${base}/api/v2/admin/${route}`, {
      method,
      headers: { Authorization: `Bearer ${operatorToken()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    console.error(`error: cannot reach ${base}: ${error.cause?.code || error.message}`);
    process.exit(1);
  }
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  if (!res.ok) {
    console.error(`error: ${res.status} ${json.message || text}`);
    if (json.errors) for (const [field, msg] of Object.entries(json.errors)) console.error(`  ${field}: ${msg}`);
    process.exit(1);
  }
  console.log(JSON.stringify(json, null, 2));
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { positional, flags } = parse(rest);
  switch (command) {
    case 'create-org': {
      const [name] = positional;
      if (!name || !flags['admin-email']) usage('create-org needs <name> and --admin-email');
      return call('POST', 'organizations', {
        name,
        ...(flags.region ? { region: flags.region } : {}),
        features: list(flags.features),
        admin: { email: flags['admin-email'] },
      });
    }
    case 'set-features': {
      const [org, features] = positional;
      if (!org || features === undefined) usage('set-features needs <org> and a feature list');
      return call('PATCH', `organizations/${encodeURIComponent(org)}`, { features: list(features) });
    }
    case 'add-member': {
      const [org, email, role] = positional;
      if (!org || !email || !role) usage('add-member needs <org> <email> <role>');
      return call('POST', `organizations/${encodeURIComponent(org)}/members`, { email, role });
    }
    default:
      usage(command ? `unknown command '${command}'` : undefined);
  }
}

main();
