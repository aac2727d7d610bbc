import { AppError } from '../../common/errors/app-error';

/**
 * The bytes about to be stored are not those whose sha256 the attestation records (a staged copy changed
 * between upload and store). Nothing is stored: no object, no blob row, no attestation.
 */
export class EvidenceDigestMismatchError extends AppError {
  readonly status = 500;
  readonly code = 'evidence_digest_mismatch';
  constructor(expected: string, actual: string) {
    super(`The attachment changed before it was stored (sha256 ${actual}, expected ${expected}); nothing was stored, please retry`);
  }
}

/**
 * A stored attachment whose bytes no longer match its sha256 (bit rot, a tampered bucket). It is refused, never
 * served: the check runs before the first byte of the response.
 */
export class EvidenceCorruptedError extends AppError {
  readonly status = 500;
  readonly code = 'evidence_corrupted';
  constructor(readonly sha256: string) {
    super(`The stored evidence file ${sha256} does not match its sha256 and is not served`);
  }
}

/**
 * An attestation names a blob the store does not have (an object deleted from the bucket, a bucket-era row read
 * by a deployment back on PostgreSQL before the bytes were copied in). A server-side loss, not the client's
 * fault: a 500 with this body on download (logged at error level), a `missing_evidence` entry in a package.
 */
export class EvidenceMissingError extends AppError {
  readonly status = 500;
  readonly code = 'evidence_missing';
  constructor(readonly sha256: string) {
    super(`The evidence file ${sha256} is missing from the evidence store and cannot be served`);
  }
}

/** The evidence store (an S3-compatible bucket) cannot be reached or answers with a server error. */
export class EvidenceStoreUnavailableError extends AppError {
  readonly status = 503;
  readonly code = 'evidence_store_unavailable';
  constructor(retryAfterSeconds = 5) {
    super('Evidence store temporarily unavailable, please retry', null, { 'Retry-After': String(retryAfterSeconds) });
  }
}
