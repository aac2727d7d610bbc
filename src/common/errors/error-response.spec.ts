import { NotFoundException } from '@nestjs/common';
import { ConflictError, ServiceUnavailableError, ValidationError } from './app-error';
import { toErrorResponse } from './error-response';

describe('toErrorResponse', () => {
  it('renders app errors with their status, message and field errors', () => {
    expect(toErrorResponse(new ValidationError({ 'a.b': 'is required' }))).toMatchObject({
      status: 400,
      body: { message: 'Input payload validation failed', errors: { 'a.b': 'is required' } },
    });
    expect(toErrorResponse(new ConflictError('dup')).status).toBe(409);
    expect(toErrorResponse(new ServiceUnavailableError()).headers).toEqual({ 'Retry-After': '5' });
  });

  it('maps lost-connection errors to 503 with Retry-After', () => {
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toErrorResponse(lost)).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    const wrapped = { message: 'Query failed', driverError: { code: '57P01', message: 'terminating connection' } };
    expect(toErrorResponse(wrapped).status).toBe(503);
  });

  it('answers 400, never 500, when PostgreSQL refuses a value of the request (an edge check that is missing)', () => {
    const nul = { message: 'invalid byte sequence for encoding "UTF8": 0x00', driverError: { code: '22021' } };
    expect(toErrorResponse(nul)).toMatchObject({ status: 400, body: { message: expect.stringMatching(/cannot be stored/), errors: null } });
    expect(toErrorResponse(nul).refusedByDatabase).toBe(nul);
    for (const code of ['22P05', '22003', '22008', '22007', '22P02', '54000']) {
      const rendered = toErrorResponse(Object.assign(new Error('value "99999999999999999999" is out of range for type bigint'), { code }));
      expect([code, rendered.status, rendered.unexpected]).toEqual([code, 400, undefined]);
      expect(rendered.body.message).not.toMatch(/bigint|9999/);
    }
    // Not input: a constraint, a syntax error.
    expect(toErrorResponse(Object.assign(new Error('x'), { code: '42601' })).status).toBe(500);
  });

  it('answers a write PostgreSQL aborted to settle a deadlock or a serialization failure with 503 and Retry-After (retrying succeeds)', () => {
    for (const code of ['40P01', '40001']) {
      const aborted = { message: 'deadlock detected', driverError: { code } };
      expect(toErrorResponse(aborted)).toMatchObject({ status: 503, headers: { 'Retry-After': '1' }, body: { message: expect.stringMatching(/retry/) } });
      expect(toErrorResponse(aborted).unexpected).toBeUndefined();
    }
  });

  it('hides unexpected errors behind an id: no stack, no SQL', () => {
    const rendered = toErrorResponse(new Error('syntax error at or near "SELEC" in SELEC * FROM secrets'));
    expect(rendered.status).toBe(500);
    expect(rendered.body.message).toMatch(/^Internal server error \(error id [0-9a-f-]{36}\)$/);
    expect(JSON.stringify(rendered.body)).not.toMatch(/SELEC|secrets|at /);
    expect(rendered.unexpected?.errorId).toBe(rendered.body.error_id);
  });

  it('keeps Nest HTTP exceptions (unknown routes) as JSON with their status', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x'))).toMatchObject({
      status: 404,
      body: { message: 'Cannot GET /x', errors: null },
    });
  });
});
