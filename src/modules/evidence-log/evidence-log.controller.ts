import { Controller, Get, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, Public } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ValidationError } from '../../common/errors/app-error';
import { ApiErrors, ApiSuccess } from '../../common/openapi/response-schema';
import { decodeHash } from '../../../libs/transparency/src';
import { CheckpointRequestDto, ConsistencyRequestDto, EntriesRequestDto, InclusionRequestDto, LookupRequestDto } from './dto/log.request.dto';
import { CHECKPOINT_SCHEMA, CONSISTENCY_SCHEMA, ENTRIES_SCHEMA, ENTRY_SCHEMA, INCLUSION_SCHEMA, KEYS_SCHEMA } from './dto/log.schema';
import {
  ConsistencyProofQuery,
  GetCheckpointQuery,
  InclusionProofQuery,
  ListEntriesQuery,
  ListLogKeysQuery,
  LookupEntryQuery,
} from './queries/log.queries';

/** The evidence log's read routes: checkpoints, entries, proofs, lookup (any member of the org), and the keys (open). */
@Controller('log')
export class EvidenceLogController {
  constructor(private readonly queryBus: QueryBus) {}

  @Public()
  @Get('keys')
  @ApiSuccess(KEYS_SCHEMA)
  keys() {
    return this.queryBus.execute(new ListLogKeysQuery());
  }

  @Get(':org/checkpoint')
  @ApiSuccess(CHECKPOINT_SCHEMA, { contentType: 'text/plain' })
  @ApiErrors({ 404: 'no checkpoint was signed at that size' })
  async checkpoint(@CurrentOrg() org: OrgContext, @Query() query: CheckpointRequestDto, @Res({ passthrough: true }) res: Response) {
    const note = await this.queryBus.execute(new GetCheckpointQuery({ ...orgScope(org), size: query.size }));
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    return note;
  }

  @Get(':org/entries')
  @ApiSuccess(ENTRIES_SCHEMA)
  entries(@CurrentOrg() org: OrgContext, @Query() query: EntriesRequestDto) {
    return this.queryBus.execute(new ListEntriesQuery({ ...orgScope(org), start: query.start, limit: query.limit }));
  }

  @Get(':org/proof/inclusion')
  @ApiSuccess(INCLUSION_SCHEMA)
  @ApiErrors({ 404: 'tree_size is larger than the log, or no entry has that leaf hash' })
  inclusion(@CurrentOrg() org: OrgContext, @Query() query: InclusionRequestDto) {
    if ((query.index === undefined) === (query.leaf_hash === undefined)) {
      throw new ValidationError({ 'query.index': 'give exactly one of index and leaf_hash' });
    }
    // A base64 hash's '+' arrives as a space when the client did not percent-encode it (form decoding of the
    // query string); base64 has no spaces, so a space can only have been a '+'.
    const leafHash = query.leaf_hash === undefined ? undefined : decodeHash(query.leaf_hash.replace(/ /g, '+'));
    if (leafHash === null) throw new ValidationError({ 'query.leaf_hash': 'must be 64 hex digits or the base64 of 32 bytes' });
    if (query.index !== undefined && query.index >= query.tree_size) {
      throw new ValidationError({ 'query.index': 'must be smaller than tree_size' });
    }
    return this.queryBus.execute(new InclusionProofQuery({ ...orgScope(org), index: query.index, leafHash, treeSize: query.tree_size }));
  }

  @Get(':org/proof/consistency')
  @ApiSuccess(CONSISTENCY_SCHEMA)
  @ApiErrors({ 404: 'second is larger than the log' })
  consistency(@CurrentOrg() org: OrgContext, @Query() query: ConsistencyRequestDto) {
    if (query.first > query.second) throw new ValidationError({ 'query.first': 'must not be greater than second' });
    return this.queryBus.execute(new ConsistencyProofQuery({ ...orgScope(org), first: query.first, second: query.second }));
  }

  @Get(':org/lookup')
  @ApiSuccess(ENTRY_SCHEMA)
  @ApiErrors({ 404: 'that record is not logged' })
  lookup(@CurrentOrg() org: OrgContext, @Query() query: LookupRequestDto) {
    return this.queryBus.execute(new LookupEntryQuery({ ...orgScope(org), kind: query.kind, id: query.id }));
  }
}
