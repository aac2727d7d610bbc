import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { NotFoundError } from '../../../../common/errors/app-error';
import { AttestationResponse, toAttestationResponse } from '../../dto/attestation.response';
import { AttestationReader } from '../../persistence/attestation.reader';
import { ListSlotVersionsQuery } from './list-slot-versions.query';

@QueryHandler(ListSlotVersionsQuery)
export class ListSlotVersionsHandler implements IQueryHandler<ListSlotVersionsQuery> {
  constructor(
    private readonly reader: AttestationReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(q: ListSlotVersionsQuery): Promise<AttestationResponse[]> {
    const trailId = await this.reader.trailId(q.props.orgId, q.props.flowName, q.props.trailName);
    // Attestation names cannot contain '.', so a dot separates the artifact from the name.
    const dot = q.props.slot.indexOf('.');
    const artifactName = dot < 0 ? null : q.props.slot.slice(0, dot);
    const name = dot < 0 ? q.props.slot : q.props.slot.slice(dot + 1);
    const rows = await this.reader.slotVersions(trailId, artifactName, name);
    if (!rows.length) {
      throw new NotFoundError(`Attestation '${q.props.slot}' not found in trail '${q.props.trailName}' of flow '${q.props.flowName}'`);
    }
    return rows.map((row) => toAttestationResponse(row, this.config.publicBaseUrl));
  }
}
