import { QueryFailedError } from 'typeorm';
import { toErrorResponse } from './error-response';
import { insufficientResources, isObjectStoreFull } from './resource-errors';

const pgError = (code: string, message: string) => new QueryFailedError('INSERT INTO evidence_blobs ...', [], Object.assign(new Error(message), { code }));

describe('insufficient resources', () => {
  it("PostgreSQL's class 53 is a 503 with Retry-After that names what ran out, never a 500", () => {
    const cases: Array<[string, string]> = [
      ['53100', 'The server is out of storage; retry later'],
      ['53200', 'The server is out of memory; retry later'],
      ['53300', 'The server has no free database connections; retry later'],
      ['53400', 'The server is out of resources; retry later'],
      ['53000', 'The server is out of resources; retry later'],
    ];
    for (const [code, message] of cases) {
      const rendered = toErrorResponse(pgError(code, 'could not extend file "base/16384/2613": No space left on device'));
      expect([code, rendered.status, rendered.body, rendered.unexpected]).toEqual([code, 503, { message, errors: null }, undefined]);
      expect(rendered.headers['Retry-After']).toMatch(/^[1-9]\d*$/);
      expect(JSON.stringify(rendered.body)).not.toMatch(/base\/16384|extend/);
    }
    expect(insufficientResources(pgError('53100', 'x'))).toMatchObject({ resource: 'storage', store: 'database' });
  });

  it('a file system with no room (ENOSPC, EDQUOT) is out of storage, however deep the wrapper', () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: 'ENOSPC' });
    expect(insufficientResources(enospc)).toMatchObject({ resource: 'storage', store: 'files' });
    expect(insufficientResources(new Error('upload failed', { cause: Object.assign(new Error('quota'), { code: 'EDQUOT' }) }))?.resource).toBe('storage');
    expect(toErrorResponse(enospc)).toMatchObject({ status: 503, body: { message: 'The server is out of storage; retry later' } });
  });

  it('no free file descriptor (EMFILE, ENFILE) for a file the service writes is a lack of resources, not a bug', () => {
    const emfile = Object.assign(new Error("EMFILE: too many open files, open '/tmp/veritrail-uploads/x'"), { code: 'EMFILE' });
    expect(insufficientResources(emfile)).toMatchObject({ resource: 'other', store: 'files' });
    expect(insufficientResources(Object.assign(new Error('ENFILE'), { code: 'ENFILE' }))).toMatchObject({ resource: 'other', store: 'files' });
    const rendered = toErrorResponse(emfile);
    expect(rendered).toMatchObject({ status: 503, body: { message: 'The server is out of resources; retry later' } });
    expect(JSON.stringify(rendered.body)).not.toContain('veritrail-uploads');
  });

  it('other errors are left alone: a constraint, a lost connection, an ordinary bug', () => {
    expect(insufficientResources(pgError('23505', 'duplicate key'))).toBeUndefined();
    expect(insufficientResources(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(insufficientResources(new TypeError('x is undefined'))).toBeUndefined();
    expect(toErrorResponse(pgError('57P01', 'terminating connection')).body.message).toBe('Database temporarily unavailable, please retry');
  });

  it('an object store that is full (507, its own codes, "No space left") is told from one that refuses a size', () => {
    expect(isObjectStoreFull({ name: 'InsufficientStorage', $metadata: { httpStatusCode: 507 } })).toBe(true);
    expect(isObjectStoreFull({ name: 'XMinioStorageFull', $metadata: { httpStatusCode: 500 } })).toBe(true);
    expect(isObjectStoreFull(new Error('We encountered an internal error: No space left on device'))).toBe(true);
    expect(isObjectStoreFull({ name: 'EntityTooLarge', $metadata: { httpStatusCode: 400 } })).toBe(false);
    expect(isObjectStoreFull({ name: 'InternalError', $metadata: { httpStatusCode: 500 } })).toBe(false);
  });
});
