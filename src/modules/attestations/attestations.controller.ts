import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { toStreamableFile } from './dto/evidence-download';
import { FindOrgAttestationQuery } from './queries/find-org-attestation/find-org-attestation.query';
import { FindOrgAttestationRequestDto } from './queries/find-org-attestation/find-org-attestation.request.dto';
import { GetAttestationEvidenceQuery } from './queries/get-attestation-evidence/get-attestation-evidence.query';
import { ListFlowAttestationsQuery } from './queries/list-flow-attestations/list-flow-attestations.query';
import { ListFlowAttestationsRequestDto } from './queries/list-flow-attestations/list-flow-attestations.request.dto';
import { ListSlotVersionsQuery } from './queries/list-slot-versions/list-slot-versions.query';
import { GetArtifactAttestationQuery } from './queries/get-artifact-attestation/get-artifact-attestation.query';
import { ListAttestationsForCriteriaQuery } from './queries/list-attestations-for-criteria/list-attestations-for-criteria.query';
import { ListAttestationsForCriteriaRequestDto } from './queries/list-attestations-for-criteria/list-attestations-for-criteria.request.dto';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { ATTESTATION_LIST_SCHEMA, ATTESTATION_PAGE_SCHEMA, ATTESTATIONS_BY_COMMIT_SCHEMA, EVIDENCE_FILE_SCHEMA } from './dto/attestation.schema';

/**
 * Read routes of attestations. Writes are per type (e.g. POST .../generic in types/generic); there is no
 * route that updates or deletes an attestation: evidence is append-only.
 */
@Controller('attestations')
export class AttestationsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':org')
  @ApiSuccess(ATTESTATION_PAGE_SCHEMA)
  findInOrg(@CurrentOrg() org: OrgContext, @Query() query: FindOrgAttestationRequestDto) {
    return this.queryBus.execute(
      new FindOrgAttestationQuery({ ...orgScope(org), attestationId: query.attestation_id, page: query.page, perPage: query.per_page }),
    );
  }

  /** Declared before `:org/:flow_name`, which would take it as a flow's name. */
  @Get(':org/list_attestations_for_criteria')
  @ApiSuccess(ATTESTATIONS_BY_COMMIT_SCHEMA)
  listForCriteria(@CurrentOrg() org: OrgContext, @Query() query: ListAttestationsForCriteriaRequestDto) {
    return this.queryBus.execute(
      new ListAttestationsForCriteriaQuery({
        ...orgScope(org),
        commitList: query.commit_list,
        flowName: query.flow_name,
        attestationName: query.attestation_name,
        attestationType: query.attestation_type,
        attestationId: query.attestation_id,
      }),
    );
  }

  @Get(':org/:flow_name')
  @ApiSuccess(ATTESTATION_PAGE_SCHEMA)
  listFlow(@CurrentOrg() org: OrgContext, @Param('flow_name') flowName: string, @Query() query: ListFlowAttestationsRequestDto) {
    return this.queryBus.execute(
      new ListFlowAttestationsQuery({
        ...orgScope(org),
        flowName,
        page: query.page,
        perPage: query.per_page,
        fromTimestamp: query.from_timestamp,
        toTimestamp: query.to_timestamp,
        attestationId: query.attestation_id,
      }),
    );
  }

  @Get(':org/:flow_name/trail/:trail_name/attestation/:attestation_id/evidence')
  @Header('Cache-Control', 'private, max-age=0')
  @ApiSuccess(EVIDENCE_FILE_SCHEMA, { contentType: 'application/octet-stream', description: 'The attachment as uploaded' })
  async evidence(
    @CurrentOrg() org: OrgContext,
    @Param('flow_name') flowName: string,
    @Param('trail_name') trailName: string,
    @Param('attestation_id') attestationId: string,
  ) {
    return toStreamableFile(await this.queryBus.execute(new GetAttestationEvidenceQuery({ ...orgScope(org), flowName, trailName, attestationId })));
  }

  @Get(':org/:flow_name/artifact/:fingerprint/:attestation_name')
  @ApiSuccess(ATTESTATION_LIST_SCHEMA)
  artifactAttestation(
    @CurrentOrg() org: OrgContext,
    @Param('flow_name') flowName: string,
    @Param('fingerprint') fingerprint: string,
    @Param('attestation_name') attestationName: string,
  ) {
    return this.queryBus.execute(new GetArtifactAttestationQuery({ ...orgScope(org), flowName, fingerprint, attestationName }));
  }

  @Get(':org/:flow_name/trail/:trail_name/:attestation_name')
  @ApiSuccess(ATTESTATION_LIST_SCHEMA)
  slotVersions(
    @CurrentOrg() org: OrgContext,
    @Param('flow_name') flowName: string,
    @Param('trail_name') trailName: string,
    @Param('attestation_name') slot: string,
  ) {
    return this.queryBus.execute(new ListSlotVersionsQuery({ ...orgScope(org), flowName, trailName, slot }));
  }
}
