/**
 * Recognises errors that mean "the database is not reachable right now" (as opposed to a bug or a
 * constraint violation), so the filter can answer 503 + Retry-After and the client can retry.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up / shutting down)
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
]);

const CONNECTION_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection ended unexpectedly/i,
  /the database system is (starting up|shutting down)/i,
  /terminating connection due to administrator command/i,
  /Cannot use a pool after calling end/i,
  /Client was closed and is not queryable/i,
  /connect ECONNREFUSED/i,
];

/**
 * TypeORM releases a transaction's query runner when its connection fails (the server went away between two
 * statements), and the transaction's next statement then fails with one of these errors instead of the
 * connection's own. The service releases a runner only when its transaction is over, so here they mean a lost
 * connection.
 */
const RELEASED_RUNNER = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; name?: unknown };
    if (typeof e.name === 'string' && RELEASED_RUNNER.has(e.name)) return true;
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.some((re) => re.test(e.message as string))) return true;
    current = e.driverError ?? e.cause;
  }
  return false;
}

/** PostgreSQL SQLSTATE of a failed query, looking through TypeORM's QueryFailedError wrapper. */
export function sqlState(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * PostgreSQL aborted the transaction to settle a conflict with a concurrent one (a deadlock, or a serialization
 * failure): nothing it did was kept, and the same work tried again normally succeeds.
 */
export function isConcurrencyAbort(error: unknown): boolean {
  const code = sqlState(error);
  return code === '40P01' || code === '40001';
}

/**
 * SQLSTATEs that mean "PostgreSQL cannot take a value the request carried" (class 22, data exception): text it
 * cannot store, a number or time out of its type's range, a value that does not parse as its type. The edge
 * checks these first, with a 400 naming the field; this is the last line of defence for a check that is
 * missing, so that such a request is still a 400 and never a 500.
 */
const INPUT_CODES: Record<string, string> = {
  '22P05': 'text that cannot be stored (a NUL character or an unpaired surrogate)',
  '22021': 'text that cannot be stored (a NUL character or bytes that are not UTF-8)',
  '22003': 'a number out of range',
  '22008': 'a date or time out of range',
  '22007': 'a date or time in a form that cannot be read',
  '22P02': 'a value that does not have the expected form',
  '22001': 'a value that is too long',
  '2201E': 'a number out of range',
  '2201W': 'a number out of range',
  '2201X': 'a number out of range',
  '22023': 'a value out of range',
  '54000': 'a value too large to store or index',
  '54001': 'a value too complex to process',
};

/** What was wrong with the request's data when PostgreSQL refused it as input, or undefined. */
export function refusedInput(error: unknown): string | undefined {
  const code = sqlState(error);
  return code === undefined ? undefined : INPUT_CODES[code];
}

/**
 * A rule the database keeps refused the write (SQLSTATE `VT400`, raised by the service's own triggers, such as
 * "an archived flow takes no new evidence"): its message, written for the client, or undefined.
 */
export function refusedByRule(error: unknown): string | undefined {
  if (sqlState(error) !== 'VT400') return undefined;
  const e = error as { message?: unknown; driverError?: { message?: unknown } };
  const message = e.driverError?.message ?? e.message;
  return typeof message === 'string' ? message : 'The request was refused';
}
