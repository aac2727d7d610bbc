import { ArgumentsHost, Catch, ExceptionFilter, Inject, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AnonymousRateLimit } from '../http/rate-limit';
import { RenameRedirects } from '../http/rename-redirect';
import { JsonLogger } from '../logging/json-logger';
import { UnauthorizedError } from './app-error';
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
    // Optional too: without it, a 401 is never counted here.
    @Optional() @Inject(AnonymousRateLimit) private readonly anonymousLimit?: AnonymousRateLimit,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & { anonymousCounted?: boolean }>();
    const res = http.getResponse<Response>();
    // A 401 from a route that checks a credential itself (web sign-in, webhook signatures, the metrics token)
    // counts toward the per-address limit like the authentication guard's: past it, 429 replaces the 401.
    if (exception instanceof UnauthorizedError && !req.anonymousCounted && this.anonymousLimit) {
      req.anonymousCounted = true;
      this.anonymousLimit.hit(req).then(
        () => this.catch(exception, host),
        (error: unknown) => this.catch(error, host),
      );
      return;
    }
    const redirect = this.renames?.redirectFor(exception, req);
    if (!redirect) return sendError(exception, req, res, this.logger, this.refusals);
    // The lookup failing (the database gone) answers as that failure would.
    redirect.then(
      (renamed) => sendError(renamed ?? exception, req, res, this.logger, this.refusals),
      (error: unknown) => sendError(error, req, res, this.logger, this.refusals),
    );
  }
}
