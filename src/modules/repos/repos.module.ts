import { Module } from '@nestjs/common';
import { TagsModule, tagTargetProvider } from '../tags/tags.module';
import { RepoReader } from './persistence/repo.reader';
import { RepoRepository } from './persistence/repo.repository';
import { GetRepoHandler } from './queries/get-repo/get-repo.handler';
import { GetLiveArtifactsHandler } from './queries/get-live-artifacts/get-live-artifacts.handler';
import { LiveArtifactsReader } from './persistence/live-artifacts.reader';
import { ListRepoTagsHandler } from './queries/list-repo-tags/list-repo-tags.handler';
import { ListReposHandler } from './queries/list-repos/list-repos.handler';
import { RepoDirectory } from './repo-directory';
import { ReposController } from './repos.controller';

/**
 * The org's source repos, registered from `repo_info` on trails, artifacts and attestations; listed, read by
 * name, their tag choices, tagged by id (a tag target). Owns `repos`.
 * Public surface: RepoDirectory.register.
 */
@Module({
  imports: [TagsModule],
  controllers: [ReposController],
  providers: [
    RepoRepository,
    RepoReader,
    RepoDirectory,
    GetRepoHandler,
    ListReposHandler,
    ListRepoTagsHandler,
    LiveArtifactsReader,
    GetLiveArtifactsHandler,
    // Repos are tagged by the service's id (`PATCH /tags/{org}/repo/{id}`).
    tagTargetProvider<RepoDirectory>('repo', RepoDirectory, (repos) => (manager, orgId, id, update) => repos.updateTags(manager, orgId, id, update)),
  ],
  exports: [RepoDirectory],
})
export class ReposModule {}

export { RepoDirectory } from './repo-directory';
export type { RepoInfoInput } from './persistence/repo.repository';
