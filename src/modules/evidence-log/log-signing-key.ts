import { createPrivateKey, generateKeyPairSync, KeyObject } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EvidenceLogSettings } from '../../common/config/app-config';
import { keyIdHex, NoteSigner, noteSigner } from '../../../libs/transparency/src';

/** Where a key generated at first start is kept, under DATA_DIR. */
export const GENERATED_KEY_FILE = 'log-signing-key.pem';

export interface LoadedSigningKey {
  signer: NoteSigner;
  keyIdHex: string;
  /** Where it came from, for the start-up line. */
  source: 'LOG_SIGNING_KEY' | 'LOG_SIGNING_KEY_FILE' | 'generated' | 'DATA_DIR';
  file?: string;
}

/**
 * The log's Ed25519 key: LOG_SIGNING_KEY (PKCS#8 PEM), else LOG_SIGNING_KEY_FILE, else `<DATA_DIR>/log-signing-key.pem`,
 * generated (mode 0600) if it is not there yet. The key name is LOG_ORIGIN.
 */
export function loadSigningKey(settings: EvidenceLogSettings, dataDir: string): LoadedSigningKey {
  const make = (key: KeyObject | string, source: LoadedSigningKey['source'], file?: string): LoadedSigningKey => {
    const privateKey = typeof key === 'string' ? createPrivateKey({ key, format: 'pem' }) : key;
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${source}: the evidence log's signing key must be Ed25519`);
    const signer = noteSigner(settings.origin, privateKey);
    return { signer, keyIdHex: keyIdHex(signer.keyId), source, file };
  };
  if (settings.signingKeyPem) return make(settings.signingKeyPem, 'LOG_SIGNING_KEY');
  if (settings.signingKeyFile) return make(fs.readFileSync(settings.signingKeyFile, 'utf8'), 'LOG_SIGNING_KEY_FILE', settings.signingKeyFile);
  const file = path.join(dataDir, GENERATED_KEY_FILE);
  try {
    return make(fs.readFileSync(file, 'utf8'), 'DATA_DIR', file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': two processes starting at once do not overwrite each other's key; the loser reads the winner's.
    fs.writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return make(fs.readFileSync(file, 'utf8'), 'DATA_DIR', file);
  }
  return make(privateKey, 'generated', file);
}
