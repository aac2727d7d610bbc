import { Module } from '@nestjs/common';
import { RepoReader } from './persistence/repo.reader';
import { RepoRepository } from './persistence/repo.repository';
import { GetRepoHandler } from './queries/get-repo/get-repo.handler';
import { RepoDirectory } from './repo-directory';
import { ReposController } from './repos.controller';

/**
 * The org's source repos, registered from `repo_info` on trails, artifacts and attestations. Owns `repos`.
 * Public surface: RepoDirectory.register.
 */
@Module({
  controllers: [ReposController],
  providers: [RepoRepository, RepoReader, RepoDirectory, GetRepoHandler],
  exports: [RepoDirectory],
})
export class ReposModule {}

export { RepoDirectory } from './repo-directory';
export type { RepoInfoInput } from './persistence/repo.repository';
