import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { CustomTypeResponse, toCustomTypeResponse } from '../../dto/custom-type.response';
import { CustomTypeRepository } from '../../persistence/custom-type.repository';
import { GetCustomTypeQuery } from './get-custom-type.query';

/** Archived types are found too (their `archived` says so): evidence judged by them stays explainable. */
@QueryHandler(GetCustomTypeQuery)
export class GetCustomTypeHandler implements IQueryHandler<GetCustomTypeQuery> {
  constructor(private readonly types: CustomTypeRepository) {}

  async execute(query: GetCustomTypeQuery): Promise<CustomTypeResponse> {
    const { orgId, orgName, name, version } = query.props;
    const row = await this.types.find(orgId, name);
    if (!row) throw new NotFoundError(`Custom attestation type '${name}' not found`);
    if (version === undefined) return toCustomTypeResponse(row, orgName);
    const one = row.versions.filter((v) => v.version === version);
    if (!one.length) throw new NotFoundError(`Custom attestation type '${name}' has no version ${version}`);
    return toCustomTypeResponse(row, orgName, one);
  }
}
