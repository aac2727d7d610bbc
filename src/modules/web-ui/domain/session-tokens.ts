import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a web session lasts (its API key's own expiry and revocation end it sooner). */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

/** 256 random bits, base64url: a session token or an anti-forgery token. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Whether `token` hashes to `hash`, in constant time. */
export function tokenMatches(token: string | undefined, hash: Buffer): boolean {
  if (!token || token.length > 256) return false;
  return timingSafeEqual(sha256(token), hash);
}
