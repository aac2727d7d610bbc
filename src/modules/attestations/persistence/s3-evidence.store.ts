import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import type { S3EvidenceSettings } from '../../../common/config/app-config';
import { InsufficientResourcesError, isObjectStoreFull } from '../../../common/errors/resource-errors';
import { EvidenceStoreUnavailableError } from '../evidence-errors';
import { StagedEvidence } from '../upload/staged-evidence';
import { BlobRow, EvidenceStore, Gate, LARGE_BLOB_BYTES, PostgresEvidenceStore, StoredEvidence } from './evidence.store';

/** Network failures the SDK reports without an HTTP status (and after its own retries). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', 'ENETUNREACH']);

/**
 * Attachments as objects of an S3-compatible bucket, one per sha256, under `<prefix>sha256/<hex>`; each also
 * has its `evidence_blobs` row (size, content NULL), written by the PostgreSQL store's SQL.
 *
 * Write order: the object first, under its content address, then the rows that name it (the blob row and the
 * attestation, in the caller's transaction, or in the one-statement group after `putAhead`). A crash or a
 * failed transaction between the two
 * leaves an object no row names: harmless, because its key is its content (the next upload of the same bytes
 * finds it and reuses it, or writes it again if it is not intact), and nothing ever reads an object that no attestation names. The content is checked
 * against its sha256 before it is sent (StagedEvidence.read) and sent with that sha256 as the object's
 * checksum, so a server that verifies checksums (AWS S3 does) refuses bytes damaged on the way.
 *
 * Blobs stored in PostgreSQL before a deployment switched to a bucket are still served: a key the bucket does
 * not have is read from `evidence_blobs` by the PostgreSQL store.
 */
export class S3EvidenceStore extends EvidenceStore implements OnModuleDestroy {
  private readonly client: S3Client;
  /** Large attachments are read whole from their temp file before upload: at most two at once per process. */
  private readonly largePuts = new Gate(2);

  constructor(
    private readonly settings: S3EvidenceSettings,
    private readonly database: PostgresEvidenceStore,
  ) {
    super();
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
      // A request answers within bounded time; an unreachable store becomes a 503 after three quick attempts.
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
      // Checksums only where S3 requires them: S3-compatible servers differ in which trailers they accept.
      // The one that matters, the object's sha256, is sent explicitly on every put.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }

  keyOf(sha256Hex: string): string {
    return `${this.settings.prefix}sha256/${sha256Hex}`;
  }

  async put(manager: EntityManager, evidence: StagedEvidence): Promise<void> {
    await this.upload(evidence);
    await this.database.recordElsewhere(manager, [evidence]);
  }

  override async putMany(manager: EntityManager, evidence: StagedEvidence[]): Promise<void> {
    await Promise.all(evidence.map((e) => this.upload(e)));
    await this.database.recordElsewhere(manager, evidence);
  }

  async putAhead(evidence: StagedEvidence[]): Promise<BlobRow[]> {
    await Promise.all(evidence.map((e) => this.upload(e)));
    return evidence.map((e) => ({ sha256: e.sha256, size: e.size, content: null }));
  }

  async open(sha256: Buffer): Promise<StoredEvidence | null> {
    const key = this.keyOf(sha256.toString('hex'));
    const object = await this.call(() => this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key })), true);
    if (!object) return this.database.open(sha256);
    const body = object.Body as AsyncIterable<Uint8Array> | undefined;
    return {
      size: Number(object.ContentLength ?? 0),
      async *chunks() {
        if (!body) return;
        try {
          for await (const chunk of body) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        } catch (error) {
          throw unavailableOr(error);
        }
      },
    };
  }

  /**
   * An object already under the key is reused only if it still looks like these bytes: its length, the SHA-256
   * the server keeps (when it keeps one) and, when its ETag is a plain MD5 (a single-part object without
   * SSE-KMS), that MD5. Anything else (an object truncated or damaged in the bucket) is written again, so a new
   * upload of the same bytes repairs it instead of naming it. A false alarm costs one PUT of identical bytes.
   */
  private async upload(evidence: StagedEvidence): Promise<void> {
    const key = this.keyOf(evidence.sha256Hex);
    const head = await this.call(() => this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key, ChecksumMode: 'ENABLED' })), true);
    const plausible =
      head !== null &&
      Number(head.ContentLength) === evidence.size &&
      (!head.ChecksumSHA256 || head.ChecksumSHA256 === evidence.sha256.toString('base64'));
    const etagMd5 = plausible ? plainMd5(head.ETag) : null;
    if (plausible && etagMd5 === null) return;
    const send = async () => {
      const content = await evidence.read();
      if (etagMd5 !== null && createHash('md5').update(content).digest('hex') === etagMd5) return;
      await this.call(() =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.settings.bucket,
            Key: key,
            Body: content,
            ContentLength: content.length,
            ContentType: 'application/octet-stream',
            ChecksumSHA256: evidence.sha256.toString('base64'),
          }),
        ),
      );
    };
    if (evidence.size > LARGE_BLOB_BYTES) await this.largePuts.run(send);
    else await send();
  }

  /** One SDK call; a missing object is null when `missingIsNull`, an unreachable store a 503. */
  private async call<T>(work: () => Promise<T>, missingIsNull = false): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      const status = (error as S3ServiceException)?.$metadata?.httpStatusCode;
      if (missingIsNull && status === 404) return null;
      throw unavailableOr(error);
    }
  }
}

/** An ETag that is an MD5 of the content (32 hex digits, quoted); null for multipart or encrypted objects' ETags. */
function plainMd5(etag: string | undefined): string | null {
  const match = /^"?([0-9a-f]{32})"?$/i.exec(etag ?? '');
  return match ? match[1].toLowerCase() : null;
}

/**
 * A full bucket (507, MinIO's XMinioStorageFull ...) is out of storage (503, counted as such); network failures,
 * timeouts and other 5xx answers mean "retry later" (503); anything else is a real error.
 */
export function unavailableOr(error: unknown): unknown {
  if (isObjectStoreFull(error)) return new InsufficientResourcesError('storage', 'evidence_store', (error as Error)?.message);
  const e = error as { $metadata?: { httpStatusCode?: number }; code?: string; name?: string; cause?: { code?: string } };
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return new EvidenceStoreUnavailableError();
  if (NETWORK_CODES.has(e?.code ?? '') || NETWORK_CODES.has(e?.cause?.code ?? '')) return new EvidenceStoreUnavailableError();
  // The SDK's retry layer rewraps what it does not recognise as an Error, keeping only the text.
  const message = (error as Error)?.message ?? '';
  if ([...NETWORK_CODES].some((code) => message.includes(code))) return new EvidenceStoreUnavailableError();
  if (e?.name === 'TimeoutError' || e?.name === 'RequestTimeout') return new EvidenceStoreUnavailableError();
  return error;
}
