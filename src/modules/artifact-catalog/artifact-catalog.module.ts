import { Module } from '@nestjs/common';
import { TrailsModule } from '../trails/trails.module';
import { ArtifactCatalogController } from './artifact-catalog.controller';
import { BuildsController } from './builds.controller';
import { ListBuildsHandler } from './queries/list-builds/list-builds.handler';
import { ArtifactViews } from './artifact-views';
import { ArtifactCatalogReader } from './persistence/artifact-catalog.reader';
import { GetArtifactsHandler } from './queries/get-artifacts/get-artifacts.handler';
import { GetLatestCommitHandler } from './queries/get-latest-commit/get-latest-commit.handler';
import { ListArtifactsHandler } from './queries/list-artifacts/list-artifacts.handler';

/**
 * Artifacts read back in the reference's shape: listed (org-wide or by flow, newest first), found by
 * fingerprint or commit, each with its trail's compliance, its slot's attestations and where it runs. Owns no
 * table: a read model over the artifacts', the ledger's, the flows' and the environments' tables. It sits above
 * the trails module (for compliance). Also serves `GET /builds/{org}` (builds are artifact reports), which the artifacts module, a writer below the trails, cannot import.
 * Public surface: ArtifactViews (for the search module).
 */
@Module({
  imports: [TrailsModule],
  controllers: [ArtifactCatalogController, BuildsController],
  providers: [ArtifactCatalogReader, ArtifactViews, ListArtifactsHandler, GetArtifactsHandler, GetLatestCommitHandler, ListBuildsHandler],
  exports: [ArtifactViews],
})
export class ArtifactCatalogModule {}

export { ArtifactViews } from './artifact-views';
export type { ArtifactResponse } from './dto/artifact.response';
export type { CatalogRow, RunRow } from './persistence/artifact-catalog.reader';

// Read messages other modules may dispatch (an artifact's audit package copies it as its read route answers it).
export { GetArtifactsQuery } from './queries/get-artifacts/get-artifacts.query';
