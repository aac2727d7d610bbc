import { DataSource } from 'typeorm';

/** The parts of pg's client and pool used here (a query object with `submit` is pg's documented extension point). */
interface PgClient {
  query(submittable: object): unknown;
  release(error?: Error | boolean): void;
}
interface PgPool {
  connect(): Promise<PgClient>;
}

/** The 11-byte signature that begins COPY's binary format. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * One bytea value read with `COPY (<select>) TO STDOUT (FORMAT binary)`: its raw bytes as the server sends them.
 * A plain query answers a bytea as hex text (twice the bytes, a string to build, then parsed back into bytes),
 * which was most of the service's cost of reading attachments; pg's own binary result mode cannot be used for it
 * (it decodes every value as UTF-8 text first, which mangles arbitrary bytes).
 *
 * `select` returns one bytea column and at most one row. COPY takes no parameters, so everything in it must be a
 * literal the caller built from trusted values (here: numbers and a hex digest). Returns null for no row or a
 * NULL value, and undefined when the data source has no pg pool (the caller then reads it the plain way).
 */
export async function copyByteaOut(dataSource: DataSource, select: string): Promise<Buffer | null | undefined> {
  const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
  if (!pool?.connect) return undefined;
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    const chunks = await new Promise<Buffer[]>((resolve, reject) => {
      const received: Buffer[] = [];
      // pg calls handleError for a server error (then detaches the query: no handleReadyForQuery follows) and for a
      // dead connection; handleReadyForQuery ends a query that succeeded.
      client.query({
        submit: (connection: { query(text: string): void }) => connection.query(`COPY (${select}) TO STDOUT (FORMAT binary)`),
        // The message's bytes are a view of the connection's read buffer, which later reads may overwrite: copied.
        handleCopyData: (message: { chunk: Buffer }) => received.push(Buffer.from(message.chunk)),
        handleCommandComplete: () => undefined,
        handleRowDescription: () => undefined,
        handleDataRow: () => undefined,
        handleEmptyQuery: () => undefined,
        handlePortalSuspended: () => undefined,
        handleCopyInResponse: () => undefined,
        handleError: (e: Error) => reject(e),
        handleReadyForQuery: () => resolve(received),
      });
    });
    return parseSingleValue(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  } catch (error) {
    failed = error instanceof Error ? error : new Error(String(error));
    throw failed;
  } finally {
    // A server error (it has a SQLSTATE code) leaves the connection usable; any other failure does not.
    client.release(failed && !('code' in failed) ? failed : undefined);
  }
}

/** COPY binary: signature, flags, header extension, then tuples (field count, then length and bytes per field), then -1. */
export function parseSingleValue(data: Buffer): Buffer | null {
  if (data.length < 19 || !data.subarray(0, 11).equals(SIGNATURE)) throw new Error('COPY binary: unexpected header');
  let at = 11 + 4;
  at += 4 + data.readUInt32BE(at);
  const fields = data.readInt16BE(at);
  at += 2;
  if (fields === -1) return null;
  if (fields !== 1) throw new Error(`COPY binary: expected one column, got ${fields}`);
  const length = data.readInt32BE(at);
  at += 4;
  if (length === -1) return null;
  if (at + length + 2 > data.length || data.readInt16BE(at + length) !== -1) throw new Error('COPY binary: expected exactly one row');
  return data.subarray(at, at + length);
}
