/** What the Authorization header carried, before any key lookup. */
export type ParsedCredential =
  | { scheme: 'bearer'; key: string }
  | { scheme: 'basic'; candidates: string[] }
  | { scheme: 'none' }
  | { scheme: 'invalid'; reason: string };

export function parseAuthorization(header: string | undefined): ParsedCredential {
  if (header === undefined || header.trim() === '') return { scheme: 'none' };
  const match = /^(\S+)\s+(.*)$/.exec(header.trim());
  if (!match) return { scheme: 'invalid', reason: 'Malformed Authorization header' };
  const scheme = match[1].toLowerCase();
  const value = match[2].trim();
  if (scheme === 'bearer') {
    return value ? { scheme: 'bearer', key: value } : { scheme: 'invalid', reason: 'Empty bearer token' };
  }
  if (scheme === 'basic') {
    if (!/^[A-Za-z0-9+/]+=*$/.test(value)) return { scheme: 'invalid', reason: 'Malformed Basic credentials' };
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { scheme: 'invalid', reason: 'Malformed Basic credentials' };
    // The API key is the username (curl -u "$KEY:"); a key sent as the password with any username works too.
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const candidates = [username, password].filter((c) => c.length > 0);
    return candidates.length
      ? { scheme: 'basic', candidates }
      : { scheme: 'invalid', reason: 'Malformed Basic credentials' };
  }
  return { scheme: 'invalid', reason: `Unsupported authorization scheme '${match[1]}'` };
}
