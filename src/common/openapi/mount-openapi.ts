import { INestApplication } from '@nestjs/common';
import { RouteEntry } from '../auth/route-table';
import { buildOpenApiDocument } from './openapi-document';
import { OpenApiController } from './openapi.controller';
import { OpenApiSource } from './openapi-source';

/** Gives the description's routes the app's route table; the document is built on first request. */
export function mountOpenApi(app: INestApplication, routes: RouteEntry[]): void {
  app.get(OpenApiSource).buildWith(() => buildOpenApiDocument(app, routes, (route) => route.controller === OpenApiController));
}
