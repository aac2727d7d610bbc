import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { repoKeyOf } from './domain/repo-key';
import { RepoInfoInput, RepoRepository, RepoRow } from './persistence/repo.repository';

/**
 * The repos module's public surface. Evidence writers (trails, artifacts, attestations) register the repo a
 * `repo_info` describes, in their own transaction.
 */
@Injectable()
export class RepoDirectory {
  constructor(private readonly repos: RepoRepository) {}

  /**
   * Registers or updates the org's repo described by a `repo_info`, keyed by its provider and the provider's
   * repo id (the name when no id is sent): provider ids are unique only within a provider, so the same id from
   * another provider is another repo, and a `repo_info` without a provider is keyed on no provider. Reads
   * first and writes only when something changed, so the many attestations that repeat the same `repo_info`
   * never queue on the repo row's lock. Returns the repo's id (minted here).
   */
  async register(manager: EntityManager, orgId: string, info: RepoInfoInput): Promise<string> {
    const key = repoKeyOf(info);
    const known = await this.repos.findByKey(manager, orgId, key);
    // Optional fields the client did not send keep what the repo already has.
    const additional = info.additional_info && Object.keys(info.additional_info).length ? info.additional_info : null;
    const wanted = {
      name: info.name,
      url: info.url ?? known?.url ?? null,
      provider: key.provider,
      description: info.description ?? known?.description ?? null,
      namespace_path: info.namespace_path ?? known?.namespace_path ?? null,
      additional_info: additional ?? known?.additional_info ?? {},
    };
    if (known && sameRepo(known, wanted)) return known.id;
    return this.repos.upsert(manager, orgId, key, wanted);
  }

  /**
   * The tags module's writer for repos, addressed by the service's id (`id` of `GET /repos/{org}/{name}`, what
   * `kosli tag repo` resolves a name to): false when the org has no such repo.
   */
  async updateTags(
    manager: EntityManager,
    orgId: string,
    id: string,
    update: (current: Record<string, string>) => Record<string, string>,
  ): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const repo = await this.repos.lockTags(manager, orgId, id.toLowerCase());
    if (!repo) return false;
    await this.repos.setTags(manager, repo.id, update(repo.tags ?? {}));
    return true;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sameRepo(row: RepoRow, wanted: Omit<RepoRow, 'id'>): boolean {
  return (
    row.name === wanted.name &&
    row.url === wanted.url &&
    row.provider === wanted.provider &&
    row.description === wanted.description &&
    row.namespace_path === wanted.namespace_path &&
    JSON.stringify(row.additional_info ?? {}) === JSON.stringify(wanted.additional_info)
  );
}
