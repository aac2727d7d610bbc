/**
 * Cache key of a bundle: sha256 over the sorted file names and contents plus the compile options. Computed
 * before compiling (the Bundle's own digest is only known after), length-prefixed so that no two different
 * file sets can produce the same byte stream.
 */
import { createHash } from 'crypto';

export function bundleDigest(files: Record<string, string>, strict = false, mode: { bundle?: boolean; regoVersion?: 0 | 1 } = {}): string {
  const h = createHash('sha256');
  h.update(strict ? 'strict\n' : 'lax\n');
  // a v1 module set (the default) keeps the digest it always had
  if (mode.bundle) h.update('bundle\n');
  if (mode.regoVersion === 0) h.update('v0\n');
  for (const name of Object.keys(files).sort()) {
    const content = files[name];
    h.update(`${Buffer.byteLength(name)}:${name}${Buffer.byteLength(content)}:`);
    h.update(content);
  }
  return h.digest('hex');
}
