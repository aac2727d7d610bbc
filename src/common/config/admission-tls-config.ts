import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The admission webhook's own HTTPS listener with client certificates (mutual TLS), `ADMISSION_TLS_*`. The
 * Kubernetes API server presents the client certificate its admission kubeconfig names; the listener accepts
 * only certificates the client CA issued (and, with `ADMISSION_TLS_CLIENT_NAMES`, only those names), and
 * serves nothing but `/api/v2/admission/...`. The API key is still required as on every route.
 */
export interface AdmissionTlsSettings {
  /** `ADMISSION_TLS_PORT` (0: any free port). */
  port: number;
  /** PEM of the server certificate chain (`ADMISSION_TLS_CERT_FILE`), its key (`ADMISSION_TLS_KEY_FILE`). */
  cert: string;
  key: string;
  /** PEM of the CA(s) that issue accepted client certificates (`ADMISSION_TLS_CLIENT_CA_FILE`). */
  clientCa: string;
  /** Accepted client names, matched against the certificate's CN and DNS names; empty: any the CA issued. */
  clientNames: string[];
}

export const ADMISSION_TLS_VARIABLES = ['ADMISSION_TLS_PORT', 'ADMISSION_TLS_CERT_FILE', 'ADMISSION_TLS_KEY_FILE', 'ADMISSION_TLS_CLIENT_CA_FILE'] as const;

/** Thrown with the variable's name and what is wrong; the config loader turns it into its start-up error. */
export class AdmissionTlsConfigError extends Error {}

function readPem(name: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new AdmissionTlsConfigError(`${name}: cannot read "${file}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** All four variables or none; files are read and checked now, so a wrong one stops start-up with its name. */
export function loadAdmissionTlsSettings(env: NodeJS.ProcessEnv): AdmissionTlsSettings | undefined {
  const set = ADMISSION_TLS_VARIABLES.filter((name) => env[name]);
  if (!set.length) {
    if (env.ADMISSION_TLS_CLIENT_NAMES) throw new AdmissionTlsConfigError('ADMISSION_TLS_CLIENT_NAMES is set but the admission TLS listener is not (ADMISSION_TLS_PORT and the files)');
    return undefined;
  }
  const missing = ADMISSION_TLS_VARIABLES.filter((name) => !env[name]);
  if (missing.length) throw new AdmissionTlsConfigError(`${missing.join(', ')} must be set with ${set.join(', ')} (the admission webhook's mutual TLS takes all four)`);
  const rawPort = env.ADMISSION_TLS_PORT!;
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) throw new AdmissionTlsConfigError(`ADMISSION_TLS_PORT must be a port number between 0 and 65535, got "${rawPort}"`);
  const cert = readPem('ADMISSION_TLS_CERT_FILE', env.ADMISSION_TLS_CERT_FILE!);
  const key = readPem('ADMISSION_TLS_KEY_FILE', env.ADMISSION_TLS_KEY_FILE!);
  const clientCa = readPem('ADMISSION_TLS_CLIENT_CA_FILE', env.ADMISSION_TLS_CLIENT_CA_FILE!);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw new AdmissionTlsConfigError('ADMISSION_TLS_CERT_FILE is not a PEM certificate');
  }
  try {
    if (!certificate.checkPrivateKey(createPrivateKey(key))) throw new AdmissionTlsConfigError('ADMISSION_TLS_KEY_FILE is not the key of the certificate in ADMISSION_TLS_CERT_FILE');
  } catch (error) {
    if (error instanceof AdmissionTlsConfigError) throw error;
    throw new AdmissionTlsConfigError('ADMISSION_TLS_KEY_FILE is not a PEM private key');
  }
  try {
    if (!new X509Certificate(clientCa).ca) throw new AdmissionTlsConfigError('ADMISSION_TLS_CLIENT_CA_FILE is a certificate but not a CA (basicConstraints CA:TRUE)');
  } catch (error) {
    if (error instanceof AdmissionTlsConfigError) throw error;
    throw new AdmissionTlsConfigError('ADMISSION_TLS_CLIENT_CA_FILE is not a PEM certificate');
  }
  const clientNames = (env.ADMISSION_TLS_CLIENT_NAMES ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  return { port, cert, key, clientCa, clientNames };
}
