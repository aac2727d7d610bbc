import { ArgumentsHost, Catch, ExceptionFilter, Inject, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RenameRedirects } from '../http/rename-redirect';
import { JsonLogger } from '../logging/json-logger';
import { ResourceRefusals } from './resource-refusals';
import { sendError } from './send-error';

/** The one place where an error becomes an HTTP answer (registered as APP_FILTER). */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    @Inject(JsonLogger) private readonly logger: JsonLogger,
    // Optional: a test module that builds the filter alone gets a warn line per refusal instead.
    @Optional() @Inject(ResourceRefusals) private readonly refusals?: ResourceRefusals,
    // Optional for the same reason: without it, an old name's 404 stays a 404.
    @Optional() @Inject(RenameRedirects) private readonly renames?: RenameRedirects,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const redirect = this.renames?.redirectFor(exception, req);
    if (!redirect) return sendError(exception, req, res, this.logger, this.refusals);
    // The lookup failing (the database gone) answers as that failure would.
    redirect.then(
      (renamed) => sendError(renamed ?? exception, req, res, this.logger, this.refusals),
      (error: unknown) => sendError(error, req, res, this.logger, this.refusals),
    );
  }
}
