import { AppError } from './app-error';

/**
 * What the server ran out of. `storage`: a full disk (PostgreSQL's disk_full, a file system's ENOSPC or
 * EDQUOT, a bucket that answers "insufficient storage"); `memory`, `connections`: PostgreSQL's out_of_memory and
 * too_many_connections; `other`: the rest of PostgreSQL's class 53 (insufficient resources), and no free file
 * descriptor (EMFILE, ENFILE) for a file the service writes.
 */
export type Resource = 'storage' | 'memory' | 'connections' | 'other';

/** Where it ran out: PostgreSQL, the evidence store (a bucket), or a file the service writes (staged uploads). */
export type ResourceStore = 'database' | 'evidence_store' | 'files';

const MESSAGES: Record<Resource, string> = {
  storage: 'The server is out of storage; retry later',
  memory: 'The server is out of memory; retry later',
  connections: 'The server has no free database connections; retry later',
  other: 'The server is out of resources; retry later',
};

/**
 * Seconds a client is told to wait. A full disk needs someone to act (or a cleanup to run), so retrying in a
 * few seconds only adds load; memory and connections come back as other requests finish.
 */
const RETRY_AFTER_SECONDS: Record<Resource, number> = { storage: 30, memory: 5, connections: 5, other: 10 };

/**
 * The server lacks a resource to carry out the request: not the client's fault and not a bug, so a 503 with
 * `Retry-After` and a message that says what is missing, never a 500. Nothing of the request was kept.
 */
export class InsufficientResourcesError extends AppError {
  readonly status = 503;
  readonly code = 'insufficient_resources';
  constructor(
    readonly resource: Resource,
    readonly store: ResourceStore,
    /** The underlying error's text, for the log line (never sent to the client). */
    readonly detail?: string,
  ) {
    super(MESSAGES[resource], null, { 'Retry-After': String(RETRY_AFTER_SECONDS[resource]) });
  }
}

/** PostgreSQL's class 53, by SQLSTATE. */
const POSTGRES_CLASS_53: Record<string, Resource> = {
  '53000': 'other', // insufficient_resources
  '53100': 'storage', // disk_full
  '53200': 'memory', // out_of_memory
  '53300': 'connections', // too_many_connections
  '53400': 'other', // configuration_limit_exceeded
};

/** File system errors that mean "no room": no space left, quota exceeded. */
const NO_SPACE_ERRNO = new Set(['ENOSPC', 'EDQUOT']);
/** File system errors that mean "no file descriptor free" (the process's or the system's table is full). */
const NO_FILE_DESCRIPTOR_ERRNO = new Set(['EMFILE', 'ENFILE']);

/**
 * The resource error behind `error`, looking through TypeORM's and the SDKs' wrappers (`driverError`, `cause`),
 * or undefined when the error is about something else.
 */
export function insufficientResources(error: unknown): InsufficientResourcesError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    if (current instanceof InsufficientResourcesError) return current;
    const e = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    const message = typeof e.message === 'string' ? e.message : undefined;
    if (typeof e.code === 'string') {
      const resource = POSTGRES_CLASS_53[e.code] ?? (/^53[0-9A-Z]{3}$/.test(e.code) ? 'other' : undefined);
      if (resource) return new InsufficientResourcesError(resource, 'database', message);
      if (NO_SPACE_ERRNO.has(e.code)) return new InsufficientResourcesError('storage', 'files', message);
      if (NO_FILE_DESCRIPTOR_ERRNO.has(e.code)) return new InsufficientResourcesError('other', 'files', message);
    }
    current = e.driverError ?? e.cause;
  }
  return undefined;
}

/** Codes S3-compatible servers use for "out of space" (AWS has none; MinIO and Ceph do). EntityTooLarge is not one. */
const STORAGE_FULL_CODES = new Set(['InsufficientStorage', 'XMinioStorageFull', 'StorageFull', 'XMinioAdminBucketQuotaExceeded', 'QuotaExceeded']);

/** Whether an object store's answer means it has no room: HTTP 507, a code above, or "No space left on device". */
export function isObjectStoreFull(error: unknown): boolean {
  const e = error as { $metadata?: { httpStatusCode?: number }; name?: unknown; Code?: unknown; code?: unknown; message?: unknown };
  if (!e || typeof e !== 'object') return false;
  if (e.$metadata?.httpStatusCode === 507) return true;
  for (const code of [e.name, e.Code, e.code]) if (typeof code === 'string' && STORAGE_FULL_CODES.has(code)) return true;
  return typeof e.message === 'string' && /no space left on device|insufficient storage|storage (is )?full/i.test(e.message);
}
