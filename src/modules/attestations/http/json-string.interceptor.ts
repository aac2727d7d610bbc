import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { Observable } from 'rxjs';
import { map } from 'rxjs/operators';

/**
 * A "string body" (decisions.md) is a JSON string with `Content-Type: application/json`; Nest would send a
 * returned string as text/html.
 */
@Injectable()
export class JsonStringInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((value) => {
        if (typeof value !== 'string') return value;
        res.type('application/json');
        return JSON.stringify(value);
      }),
    );
  }
}
