/**
 * Cache key of a bundle: sha256 over the sorted file names and contents plus the compile options. Computed
 * before compiling (the Bundle's own digest is only known after), length-prefixed so that no two different
 * file sets can produce the same byte stream.
 */
import { createHash } from 'crypto';

export function bundleDigest(files: Record<string, string>, strict = false): string {
  const h = createHash('sha256');
  h.update(strict ? 'strict\n' : 'lax\n');
  for (const name of Object.keys(files).sort()) {
    const content = files[name];
    h.update(`${Buffer.byteLength(name)}:${name}${Buffer.byteLength(content)}:`);
    h.update(content);
  }
  return h.digest('hex');
}
