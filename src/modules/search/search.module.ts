import { Module } from '@nestjs/common';
import { ArtifactCatalogModule } from '../artifact-catalog/artifact-catalog.module';
import { SearchShaHandler } from './queries/search-sha/search-sha.handler';
import { SearchController } from './search.controller';

/**
 * `GET /search/{org}/sha/{value}`: a full or partial (5+ characters) fingerprint or commit sha finds the
 * artifacts reported with it, across flows; an ambiguous prefix answers every match (at most 100 reports).
 * Owns no table; reads through the artifact catalog (prefix indexes on fingerprint and commit).
 */
@Module({
  imports: [ArtifactCatalogModule],
  controllers: [SearchController],
  providers: [SearchShaHandler],
})
export class SearchModule {}
