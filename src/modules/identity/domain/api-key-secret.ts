import { createHash, randomBytes } from 'node:crypto';

/** Recognisable prefix so leaked keys can be found by secret scanners. */
export const API_KEY_PREFIX = 'vtk_';

/** 32 random bytes; only the sha256 is stored (the key has full entropy, so a slow hash adds nothing). */
export function generateApiKey(): { key: string; hash: Buffer } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
