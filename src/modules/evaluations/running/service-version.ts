import * as fs from 'node:fs';
import * as path from 'node:path';

let cached: string | undefined;

/** The service's version (package.json), found from this file in the sources and in the build alike. */
export function serviceVersion(): string {
  if (cached) return cached;
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'veritrail') return (cached = pkg.version ?? '0.0.0');
    }
  }
  return (cached = '0.0.0');
}
