import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { DEFAULT_PER_PAGE } from '../../../../common/pagination/page-envelope';
import { ControlDirectory } from '../../../controls/controls.module';
import { EnvironmentGate } from '../../../environments/environments.module';
import { PolicyGate } from '../../../policies/policies.module';
import { ControlCoverageResponse, CoveredEnvironment } from '../../dto/control-coverage.response';
import { GetControlCoverageQuery } from './get-control-coverage.query';

/**
 * A control's coverage: which environments enforce it. An environment is covered when a policy attached to it
 * requires, in its latest version, a decision for the control (`type: decision`, `for_control`), whether or
 * not the environment passes it now. Archived environments are not counted, nor logical ones (they take no
 * policies); a detached policy no longer covers.
 * An org has environments by the tens or hundreds, so the page is cut here from the whole list.
 */
@QueryHandler(GetControlCoverageQuery)
export class GetControlCoverageHandler implements IQueryHandler<GetControlCoverageQuery> {
  constructor(
    private readonly controls: ControlDirectory,
    private readonly environments: EnvironmentGate,
    private readonly policies: PolicyGate,
  ) {}

  async execute(query: GetControlCoverageQuery): Promise<ControlCoverageResponse> {
    const { orgId, identifier, search, covered } = query.props;
    const page = query.props.page ?? 1;
    const perPage = query.props.perPage ?? DEFAULT_PER_PAGE;
    const control = await this.controls.find(orgId, identifier);
    if (!control) throw new NotFoundError(`Control '${identifier}' not found`);
    const [environments, coverage] = await Promise.all([this.environments.listJudgeable(orgId), this.policies.controlCoverage(orgId, identifier)]);
    const all: CoveredEnvironment[] = environments.map((e) => {
      const policies = coverage.get(e.id) ?? [];
      return { environment_name: e.name, environment_type: e.type, covered: policies.length > 0, policies };
    });
    const coveredCount = all.filter((e) => e.covered).length;
    const needle = search?.toLowerCase();
    const kept = all.filter((e) => (covered === undefined || e.covered === covered) && (!needle || e.environment_name.toLowerCase().includes(needle)));
    return {
      control: control.identifier,
      total: all.length,
      covered: coveredCount,
      coverage_percent: all.length ? Math.round((coveredCount / all.length) * 1000) / 10 : 0,
      environments: kept.slice((page - 1) * perPage, page * perPage),
      page,
      per_page: perPage,
      total_pages: Math.max(1, Math.ceil(kept.length / perPage)),
      total_count: kept.length,
    };
  }
}
