import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CustomTypeResponse, toCustomTypeResponse } from '../../dto/custom-type.response';
import { CustomTypeRepository } from '../../persistence/custom-type.repository';
import { ListCustomTypesQuery } from './list-custom-types.query';

@QueryHandler(ListCustomTypesQuery)
export class ListCustomTypesHandler implements IQueryHandler<ListCustomTypesQuery> {
  constructor(private readonly types: CustomTypeRepository) {}

  async execute(query: ListCustomTypesQuery): Promise<CustomTypeResponse[]> {
    return (await this.types.list(query.props.orgId)).map((row) => toCustomTypeResponse(row, query.props.orgName));
  }
}
