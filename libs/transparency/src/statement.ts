import { canonicalJson, canonicalJsonBytes, canonicalSha256 } from './jcs';
import { DsseEnvelope, DsseSigner, IN_TOTO_PAYLOAD_TYPE, signEnvelope } from './dsse';
import { leafHash, sha256 } from './merkle';

/** Builders for the two objects the trust layer signs or logs: a log entry's leaf and a decision's statement. */

// ---------------------------------------------------------------------------------------------------------------
// Log entries

export interface LogEntryLocators {
  flow?: string;
  trail?: string;
  environment?: string;
  fingerprint?: string;
  /** SHA-256 (hex) of an attachment's bytes. */
  evidence_sha256?: string;
  /** A trail's moment number. */
  moment?: number;
}

const LOCATOR_KEYS: ReadonlyArray<keyof LogEntryLocators> = ['flow', 'trail', 'environment', 'fingerprint', 'evidence_sha256', 'moment'];
const HEX64 = /^[0-9a-f]{64}$/;

export interface LogEntryInput {
  kind: string;
  org: string;
  id: string;
  /** A Date (millisecond precision, padded to microseconds) or an RFC 3339 UTC text with exactly 6 fraction digits. */
  recordedAt: Date | string;
  /** The record's read shape; its canonical JSON's SHA-256 becomes record_sha256. Give this or recordSha256. */
  record?: unknown;
  /** Hex SHA-256, when the caller already hashed the record's canonical bytes (an evaluation's envelope). */
  recordSha256?: string;
  locators?: LogEntryLocators;
}

export interface LogEntryObject extends LogEntryLocators {
  v: 1;
  kind: string;
  org: string;
  id: string;
  recorded_at: string;
  record_sha256: string;
}

export interface BuiltLogEntry {
  object: LogEntryObject;
  /** The leaf's canonical JSON text (what the entries route serves as "leaf"). */
  leaf: string;
  /** The leaf data: UTF-8 bytes of `leaf`. */
  data: Buffer;
  /** SHA-256(0x00 || data). */
  leafHash: Buffer;
}

/** RFC 3339 UTC with exactly microseconds, e.g. 2026-11-27T00:37:21.123456Z. */
export function formatRecordedAt(at: Date | string): string {
  if (at instanceof Date) {
    if (Number.isNaN(at.getTime())) throw new RangeError('recorded_at is not a valid date');
    return at.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) || Number.isNaN(Date.parse(at))) {
    throw new RangeError(`recorded_at ${JSON.stringify(at)} is not RFC 3339 UTC with microseconds`);
  }
  return at;
}

/** From microseconds since the Unix epoch (PostgreSQL's own precision). */
export function recordedAtFromEpochMicros(micros: bigint): string {
  const ms = micros / 1000n;
  const rest = micros % 1000n;
  if (micros < 0n) throw new RangeError('recorded_at before 1970 is not supported');
  return new Date(Number(ms)).toISOString().replace(/Z$/, `${rest.toString().padStart(3, '0')}Z`);
}

export function buildLogEntry(input: LogEntryInput): BuiltLogEntry {
  if (!/^[a-z][a-z0-9_]*$/.test(input.kind)) throw new RangeError(`kind ${JSON.stringify(input.kind)} is not snake_case`);
  if (!input.org || !input.id) throw new RangeError('org and id are required');
  const hasRecord = input.record !== undefined;
  if (hasRecord === (input.recordSha256 !== undefined)) throw new RangeError('give exactly one of record and recordSha256');
  const recordSha = hasRecord ? canonicalSha256(input.record) : input.recordSha256!;
  if (!HEX64.test(recordSha)) throw new RangeError('record_sha256 must be 64 lowercase hex digits');
  const object: LogEntryObject = {
    v: 1,
    kind: input.kind,
    org: input.org,
    id: input.id,
    recorded_at: formatRecordedAt(input.recordedAt),
    record_sha256: recordSha,
  };
  for (const [key, value] of Object.entries(input.locators ?? {})) {
    if (value === undefined) continue;
    if (!LOCATOR_KEYS.includes(key as keyof LogEntryLocators)) throw new RangeError(`unknown locator ${key}`);
    if (key === 'moment' ? !Number.isSafeInteger(value) || (value as number) < 0 : typeof value !== 'string' || value.length === 0) {
      throw new RangeError(`locator ${key} has a bad value`);
    }
    if (key === 'evidence_sha256' && !HEX64.test(value as string)) throw new RangeError('evidence_sha256 must be 64 lowercase hex digits');
    (object as unknown as Record<string, unknown>)[key] = value;
  }
  const leaf = canonicalJson(object);
  const data = Buffer.from(leaf, 'utf8');
  return { object, leaf, data, leafHash: leafHash(data) };
}

// ---------------------------------------------------------------------------------------------------------------
// Signed decisions: an in-toto Statement v1 with a SLSA Verification Summary Attestation v1 predicate

export const IN_TOTO_STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const SLSA_VSA_PREDICATE_TYPE = 'https://slsa.dev/verification_summary/v1';

export interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest: { sha256: string };
}

export interface VsaStatement {
  _type: typeof IN_TOTO_STATEMENT_TYPE;
  subject: Array<{ name: string; digest: { sha256: string } }>;
  predicateType: typeof SLSA_VSA_PREDICATE_TYPE;
  predicate: {
    verifier: { id: string; version: { veritrail: string; rego: string } };
    timeVerified: string;
    resourceUri: string;
    policy: { uri: string; digest: { sha256: string } };
    inputAttestations: Array<{ uri: string; digest: { sha256: string } }>;
    verificationResult: 'PASSED' | 'FAILED';
    verifiedLevels: string[];
  };
}

export interface EvaluatedTrail {
  org: string;
  flow: string;
  trail: string;
  moment: number;
  /** The trail's element of the policy input; the subject digest is the SHA-256 of its canonical JSON. */
  input: unknown;
}

export interface VsaInput {
  /** The service's PUBLIC_BASE_URL. */
  verifierId: string;
  veritrailVersion: string;
  regoVersion: string;
  /** The evaluation's instant. A Date is written as toISOString() (milliseconds, Z). */
  timeVerified: Date | string;
  /** The evaluation's URL. */
  evaluationUrl: string;
  /** Hex SHA-256 of the policy bundle. */
  policySha256: string;
  trails: EvaluatedTrail[];
  /** Artifacts a decision names: subject name and its SHA-256 fingerprint. */
  artifacts?: Array<{ name: string; fingerprint: string }>;
  /** Every attestation the input held: its read URL and its record_sha256. */
  inputAttestations: Array<{ uri: string; recordSha256: string }>;
  allowed: boolean;
  /** The control the evaluation answers, if any. */
  controlId?: string;
}

function hex64(name: string, value: string): string {
  if (!HEX64.test(value)) throw new RangeError(`${name} must be 64 lowercase hex digits`);
  return value;
}

export function buildVsaStatement(input: VsaInput): VsaStatement {
  const timeVerified = input.timeVerified instanceof Date ? input.timeVerified.toISOString() : input.timeVerified;
  if (Number.isNaN(Date.parse(timeVerified))) throw new RangeError('timeVerified is not a date');
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [
      ...input.trails.map((t) => ({ name: `${t.org}/${t.flow}/${t.trail}@${t.moment}`, digest: { sha256: canonicalSha256(t.input) } })),
      ...(input.artifacts ?? []).map((a) => ({ name: a.name, digest: { sha256: hex64('artifact fingerprint', a.fingerprint) } })),
    ],
    predicateType: SLSA_VSA_PREDICATE_TYPE,
    predicate: {
      verifier: { id: input.verifierId, version: { veritrail: input.veritrailVersion, rego: input.regoVersion } },
      timeVerified,
      resourceUri: input.evaluationUrl,
      policy: { uri: `${input.evaluationUrl}#policy`, digest: { sha256: hex64('policy digest', input.policySha256) } },
      inputAttestations: input.inputAttestations.map((a) => ({ uri: a.uri, digest: { sha256: hex64('attestation record_sha256', a.recordSha256) } })),
      verificationResult: input.allowed ? 'PASSED' : 'FAILED',
      verifiedLevels: input.controlId !== undefined ? [`VERITRAIL_CONTROL_${input.controlId}`] : [],
    },
  };
}

export interface SignedStatement {
  envelope: DsseEnvelope;
  /** The envelope's RFC 8785 canonical JSON: the exact bytes the attestation route serves. */
  canonical: string;
  /** Hex SHA-256 of `canonical`: the record_sha256 of the evaluation's log entry. */
  sha256: string;
}

/** Signs a statement: the payload is the statement's canonical JSON; the envelope is served canonicalized. */
export function signStatement(statement: unknown, signers: readonly DsseSigner[]): SignedStatement {
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, canonicalJsonBytes(statement), signers);
  const canonical = canonicalJson(envelope);
  return { envelope, canonical, sha256: sha256(Buffer.from(canonical, 'utf8')).toString('hex') };
}
