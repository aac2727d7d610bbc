import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { AttestationResponse, toAttestationResponse } from '../../dto/attestation.response';
import { AttestationSearchReader } from '../../persistence/attestation-search.reader';
import { GetArtifactAttestationQuery } from './get-artifact-attestation.query';

const FINGERPRINT_PREFIX = /^[a-f0-9]{5,64}$/;

/** 400 for a fingerprint that is not 5-64 lowercase hex; 404 for an unknown flow or no such attestation. */
@QueryHandler(GetArtifactAttestationQuery)
export class GetArtifactAttestationHandler implements IQueryHandler<GetArtifactAttestationQuery> {
  constructor(
    private readonly search: AttestationSearchReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(q: GetArtifactAttestationQuery): Promise<AttestationResponse[]> {
    const { orgId, flowName, fingerprint, attestationName } = q.props;
    if (!FINGERPRINT_PREFIX.test(fingerprint)) throw new ValidationError({ 'path.fingerprint': 'must be 5 to 64 lowercase hex characters' });
    const flowId = await this.search.flowId(orgId, flowName);
    if (!flowId) throw new NotFoundError(`Flow '${flowName}' not found`);
    const rows = await this.search.forArtifact(orgId, flowId, fingerprint, attestationName);
    if (!rows.length) throw new NotFoundError(`Attestation '${attestationName}' not found for artifact '${fingerprint}' in flow '${flowName}'`);
    return rows.map((row) => toAttestationResponse(row, this.config.publicBaseUrl));
  }
}
