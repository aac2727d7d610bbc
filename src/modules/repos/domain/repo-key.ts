/**
 * What identifies a repo in an org: the provider's id (the name when no id is sent) within its provider. Provider
 * ids are unique only within a provider (GitHub's 101 and GitLab's 101 are two repos). No provider (absent or
 * empty) is a key of its own.
 */
export interface RepoKey {
  provider: string | null;
  externalId: string;
}

/**
 * The key a `repo_info` registers its repo under. Readers that match stored `repo_info` to repos use the same
 * rule in SQL: `COALESCE(NULLIF(ri->>'id', ''), ri->>'name')` and `NULLIF(ri->>'provider', '')`.
 */
export function repoKeyOf(info: { id?: string | null; name: string; provider?: string | null }): RepoKey {
  const id = info.id === undefined || info.id === null ? '' : String(info.id);
  return { provider: info.provider ? info.provider : null, externalId: id.length ? id : info.name };
}
