import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { ArtifactViews } from '../../../artifact-catalog/artifact-catalog.module';
import { FoundArtifact, SearchResponse } from '../../dto/search.response';
import { SearchShaQuery } from './search-sha.query';

/** A fingerprint (64) or commit (40) sha, or the first 5 or more of its hex characters. */
const SHA_PREFIX = /^[0-9a-f]{5,64}$/;

@QueryHandler(SearchShaQuery)
export class SearchShaHandler implements IQueryHandler<SearchShaQuery> {
  constructor(private readonly views: ArtifactViews) {}

  async execute(query: SearchShaQuery): Promise<SearchResponse> {
    const { orgId, orgName } = query.props;
    const value = query.props.value.toLowerCase();
    if (!SHA_PREFIX.test(value)) {
      throw new ValidationError({ 'path.search_value': 'must be 5 to 64 hexadecimal characters (a fingerprint, a commit sha, or their start)' });
    }
    const rows = await this.views.byShaPrefix(orgId, value);
    if (!rows.length) throw new NotFoundError(`No artifact or commit matching '${value}' found`);
    const fingerprints = [...new Set(rows.filter((r) => r.fingerprint.startsWith(value)).map((r) => r.fingerprint))];
    const commits = [...new Set(rows.filter((r) => r.git_commit?.startsWith(value)).map((r) => r.git_commit!))];
    const type = fingerprints.length === 1 && !commits.length ? 'fingerprint' : commits.length === 1 && !fingerprints.length ? 'commit' : 'multiple';
    const [compliance, runs] = await Promise.all([this.views.compliance(rows), this.views.runs(orgId, [...new Set(rows.map((r) => r.fingerprint))])]);
    const artifacts: FoundArtifact[] = rows.map((r) => {
      const own = runs.filter((x) => x.fingerprint === r.fingerprint);
      const links = this.views.links(orgName, r.flow_name, r.fingerprint);
      return {
        fingerprint: r.fingerprint,
        name: r.filename,
        has_provenance: true,
        git_commit: r.git_commit ?? '',
        pipeline: r.flow_name,
        flow: r.flow_name,
        trail: r.trail_name,
        template_reference_name: r.template_reference_name,
        build_url: r.build_url ?? '',
        commit_url: r.commit_url ?? '',
        compliance_state: compliance.get(r.id)!.state,
        running_in: own.filter((x) => x.running).map((x) => x.environment_name),
        exited_from: own.filter((x) => !x.running).map((x) => x.environment_name),
        html_url: links.html_url,
        api_url: links.api_url,
        history: [{ event: `Reported to trail '${r.trail_name}' of flow '${r.flow_name}'`, timestamp: r.created_at }],
      };
    });
    return {
      resolved_to: {
        type,
        full_match: type === 'commit' ? commits[0] : (fingerprints[0] ?? commits[0]),
        fingerprints: { type: 'fingerprint', count: fingerprints.length, matches: fingerprints },
        commits: { type: 'commit', count: commits.length, matches: commits },
      },
      artifacts,
    };
  }
}
