import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';
import { OpenApiSource } from './openapi-source';

/** Serves the API description; `mountOpenApi` (app.factory.ts) gives it the app's routes. */
@Module({
  controllers: [OpenApiController],
  providers: [OpenApiSource],
  exports: [OpenApiSource],
})
export class OpenApiModule {}
