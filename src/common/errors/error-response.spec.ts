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
