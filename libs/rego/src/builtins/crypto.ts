/** Hashes and HMACs over the UTF-8 bytes of strings (hex output), and constant-time MAC comparison. */
import { createHash, createHmac, timingSafeEqual } from 'crypto';
import type { BuiltinImpl } from './contract';
import { str } from './operands';

const hash = (alg: string): BuiltinImpl => (args) => createHash(alg).update(str(args, 0), 'utf8').digest('hex');
const hmac = (alg: string): BuiltinImpl => (args) =>
  createHmac(alg, Buffer.from(str(args, 1), 'utf8')).update(str(args, 0), 'utf8').digest('hex');

export const CRYPTO: Record<string, BuiltinImpl> = {
  'crypto.md5': hash('md5'),
  'crypto.sha1': hash('sha1'),
  'crypto.sha256': hash('sha256'),
  'crypto.hmac.md5': hmac('md5'),
  'crypto.hmac.sha1': hmac('sha1'),
  'crypto.hmac.sha256': hmac('sha256'),
  'crypto.hmac.sha512': hmac('sha512'),
  'crypto.hmac.equal': (args) => {
    const a = Buffer.from(str(args, 0), 'utf8');
    const b = Buffer.from(str(args, 1), 'utf8');
    return a.length === b.length && timingSafeEqual(a, b);
  },
};
