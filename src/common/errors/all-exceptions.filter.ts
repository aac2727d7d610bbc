import { ArgumentsHost, Catch, ExceptionFilter, Inject, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
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
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<Request>(), http.getResponse<Response>(), this.logger, this.refusals);
  }
}
