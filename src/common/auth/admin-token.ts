import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The operator token: ADMIN_TOKEN when set; otherwise one generated at first start and kept in the data
 * folder (mode 0600), so a new installation can bootstrap without choosing a secret first.
 */
export function resolveAdminToken(configured: string | undefined, dataDir: string): { token: string; file?: string; created: boolean } {
  if (configured) return { token: configured, created: false };
  const file = path.join(dataDir, 'admin-token');
  if (fs.existsSync(file)) return { token: fs.readFileSync(file, 'utf8').trim(), file, created: false };
  fs.mkdirSync(dataDir, { recursive: true });
  const token = 'vta_' + randomBytes(32).toString('base64url');
  fs.writeFileSync(file, token + '\n', { mode: 0o600 });
  return { token, file, created: true };
}
