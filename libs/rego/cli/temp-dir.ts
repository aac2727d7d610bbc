/** Temp directory trees for the specs: `makeTree({ 'a/b.rego': '...' })` writes real files. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export function makeTree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rego-cli-'));
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return root;
}

export function removeTree(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}
