/**
 * Errors are data until the edge: handlers and domain code throw these, and the one global filter maps
 * `status` and `message` onto the wire body `{message, errors}`.
 */
export type FieldErrors = Record<string, string>;

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly errors: FieldErrors | null;
  readonly headers: Record<string, string>;

  constructor(message: string, errors: FieldErrors | null = null, headers: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.errors = errors;
    this.headers = headers;
  }
}

export class ValidationError extends AppError {
  readonly status = 400;
  readonly code = 'validation_failed';
  constructor(errors: FieldErrors, message = 'Input payload validation failed') {
    super(message, errors);
  }
}

/** A 400 that is not about one field (for example "Only physical environments can be added ..."). */
export class BadRequestError extends AppError {
  readonly status = 400;
  readonly code = 'bad_request';
}

export class UnauthorizedError extends AppError {
  readonly status = 401;
  readonly code = 'unauthorized';
  constructor(message = 'Authentication required', scheme = 'Bearer') {
    super(message, null, { 'WWW-Authenticate': `${scheme} realm="veritrail"` });
  }
}

export class ForbiddenError extends AppError {
  readonly status = 403;
  readonly code = 'forbidden';
  constructor(message = "You don't have permission to access this resource") {
    super(message);
  }
}

export class BetaFeatureDisabledError extends AppError {
  readonly status = 403;
  readonly code = 'beta_feature_disabled';
  constructor(feature: string, org: string) {
    super(`The beta feature '${feature}' is not enabled for organization '${org}'`);
  }
}

export class NotFoundError extends AppError {
  readonly status = 404;
  readonly code = 'not_found';
}

export class OrganizationNotFoundError extends NotFoundError {
  constructor(org: string, headers: Record<string, string> = {}) {
    super(`Organization '${org}' not found`, null, headers);
  }
}

export class ConflictError extends AppError {
  readonly status = 409;
  readonly code = 'conflict';
}

export class PayloadTooLargeError extends AppError {
  readonly status = 413;
  readonly code = 'payload_too_large';
}

export class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
  readonly code = 'unsupported_media_type';
}

export class ServiceUnavailableError extends AppError {
  readonly status = 503;
  readonly code = 'database_unavailable';
  constructor(message = 'Database temporarily unavailable, please retry', retryAfterSeconds = 5) {
    super(message, null, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export class TooManyRequestsError extends AppError {
  readonly status = 429;
  readonly code = 'rate_limited';
  constructor(message: string, retryAfterSeconds: number) {
    super(message, null, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
