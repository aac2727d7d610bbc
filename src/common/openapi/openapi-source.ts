import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The API description of the running app. It is built from the app's routes, which exist only once the app
 * is created, so app.factory.ts hands over a builder; the document is built on first request and kept.
 */
@Injectable()
export class OpenApiSource {
  private builder: (() => OpenAPIObject) | undefined;
  private document: OpenAPIObject | undefined;

  buildWith(builder: () => OpenAPIObject): void {
    this.builder = builder;
    this.document = undefined;
  }

  get(): OpenAPIObject {
    if (!this.builder) throw new Error('The API description was not mounted (mountOpenApi in app.factory.ts)');
    return (this.document ??= this.builder());
  }
}
