import { Global, Module } from '@nestjs/common';
import { RepoRegistry } from './persistence/repo-registry';
import { GetRepoHandler } from './queries/get-repo/get-repo.handler';
import { ReposController } from './repos.controller';

/** The org's source repos: registered from `repo_info` on trails, artifacts and attestations. */
@Global()
@Module({
  controllers: [ReposController],
  providers: [RepoRegistry, GetRepoHandler],
  exports: [RepoRegistry],
})
export class ReposModule {}
