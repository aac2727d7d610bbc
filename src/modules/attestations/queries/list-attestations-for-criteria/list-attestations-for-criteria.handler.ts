import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { ValidationError } from '../../../../common/errors/app-error';
import { AttestationResponse, toAttestationResponse } from '../../dto/attestation.response';
import { AttestationSearchReader } from '../../persistence/attestation-search.reader';
import { AttestationTypeRegistry } from '../../types/attestation-type.registry';
import { ListAttestationsForCriteriaQuery } from './list-attestations-for-criteria.query';

const SHA1 = /^[a-f0-9]{40}$/;
/** A request names at most this many commits (a release's worth; the URL limit comes first in practice). */
export const MAX_COMMITS = 500;

/**
 * The reference's search by commit: `commit_list` is required (400 with the reference's message); each commit
 * must be 40 lowercase hex; `attestation_type` is a registered type or `custom:<name>`, else 400. Every commit
 * asked for is a key of the answer, with `[]` when nothing names it; attestations newest first. `attestation_id`
 * narrows to that one attestation (the reference ignores it; narrowing is what a caller who sends it means).
 */
@QueryHandler(ListAttestationsForCriteriaQuery)
export class ListAttestationsForCriteriaHandler implements IQueryHandler<ListAttestationsForCriteriaQuery> {
  constructor(
    private readonly search: AttestationSearchReader,
    private readonly registry: AttestationTypeRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(q: ListAttestationsForCriteriaQuery): Promise<Record<string, AttestationResponse[]>> {
    const { orgId, commitList, flowName, attestationName, attestationType, attestationId } = q.props;
    const commits = [...new Set((Array.isArray(commitList) ? commitList : commitList === undefined ? [] : [commitList]).flatMap((c) => String(c).split(',')).map((c) => c.trim()).filter(Boolean))];
    if (!commits.length) {
      throw new ValidationError({ 'query.commit_list': 'is required' }, 'commit_list is required: provide one or more commit SHAs to search.');
    }
    const errors: Record<string, string> = {};
    if (commits.length > MAX_COMMITS) errors['query.commit_list'] = `must name at most ${MAX_COMMITS} commits`;
    const bad = commits.find((c) => !SHA1.test(c));
    if (bad !== undefined) errors['query.commit_list'] = `'${bad.slice(0, 64)}' is not a commit SHA (40 lowercase hex characters)`;
    let types: { builtIn: string | null; customName: string | null } | undefined;
    if (attestationType !== undefined) {
      const custom = /^custom:(.+)$/.exec(attestationType);
      if (custom) types = { builtIn: null, customName: custom[1] };
      else if (this.registry.get(attestationType)) types = { builtIn: attestationType, customName: null };
      else errors['query.attestation_type'] = `must be one of ${this.registry.names().join(', ')} or custom:<name>`;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);

    const rows = await this.search.forCommits(orgId, commits, { flowName, attestationName, attestationId, types });
    const answer: Record<string, AttestationResponse[]> = Object.fromEntries(commits.map((c) => [c, []]));
    for (const row of rows) answer[row.git_commit_info!.sha1 as string]?.push(toAttestationResponse(row, this.config.publicBaseUrl));
    return answer;
  }
}
