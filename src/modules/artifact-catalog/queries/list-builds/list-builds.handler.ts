import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { ValidationError } from '../../../../common/errors/app-error';
import { pageLinks } from '../../../../common/pagination/page-envelope';
import { BuildPage } from '../../dto/build.response';
import { ArtifactCatalogReader } from '../../persistence/artifact-catalog.reader';
import { ListBuildsQuery } from './list-builds.query';

const DAYS_28 = 28 * 86400;
const enc = encodeURIComponent;

/**
 * The reference's builds: each artifact report of the org (a build made something and reported it), newest
 * first, in a time window (default: the 28 days before now), optionally of one repo.
 */
@QueryHandler(ListBuildsQuery)
export class ListBuildsHandler implements IQueryHandler<ListBuildsQuery> {
  constructor(
    private readonly reader: ArtifactCatalogReader,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListBuildsQuery): Promise<BuildPage> {
    const p = query.props;
    const to = p.endTs ?? this.clock.now() / 1000;
    const from = p.startTs ?? to - DAYS_28;
    if (from > to) throw new ValidationError({ 'query.start-ts': 'must not be after end-ts' });
    const page = p.page ?? 1;
    const perPage = p.perPage ?? 15;
    const { rows, total } = await this.reader.builds(p.orgId, { from, to, repoId: p.repoId, repoName: p.repoName }, { offset: (page - 1) * perPage, limit: perPage });
    const base = this.config.publicBaseUrl;
    const totalPages = Math.max(1, Math.ceil(total / perPage));
    return {
      builds: rows.map((r) => ({
        created_at: r.created_at,
        fingerprint: r.fingerprint,
        flow_name: r.flow_name,
        trail_name: r.trail_name,
        repo_info: r.repo_info
          ? {
              id: (r.repo_info.id as string | undefined) ?? null,
              name: String(r.repo_info.name ?? ''),
              url: (r.repo_info.url as string | undefined) ?? null,
              provider: (r.repo_info.provider as string | undefined) ?? null,
            }
          : null,
        _links: {
          artifact: `${base}/api/v2/artifacts/${enc(p.orgName)}/${enc(r.flow_name)}/fingerprint/${r.fingerprint}`,
          trail: `${base}/api/v2/trails/${enc(p.orgName)}/${enc(r.flow_name)}/${enc(r.trail_name)}`,
        },
      })),
      page,
      per_page: perPage,
      total_pages: totalPages,
      total_count: total,
      _links: pageLinks(
        `${base}/api/v2/builds/${enc(p.orgName)}`,
        { repo_id: p.repoId, repo_name: p.repoName, 'start-ts': p.startTs, 'end-ts': p.endTs },
        page,
        perPage,
        totalPages,
      ),
    };
  }
}
