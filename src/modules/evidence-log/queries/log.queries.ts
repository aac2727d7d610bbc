import { Query } from '@nestjs/cqrs';
import { OrgQuery, OrgScope } from '../../../common/cqrs/org-scoped';

export interface EntryAnswer {
  index: number | null;
  leaf: string;
  leaf_hash: string;
}

/** `GET /log/{org}/checkpoint[?size=N]`: the signed note text. */
export class GetCheckpointQuery extends OrgQuery<OrgScope & { size?: number }, string> {}

/** `GET /log/{org}/entries?start=S&limit=L`. */
export class ListEntriesQuery extends OrgQuery<OrgScope & { start: number; limit: number }, { tree_size: number; entries: EntryAnswer[] }> {}

/** `GET /log/{org}/proof/inclusion?index=I|leaf_hash=H&tree_size=N`. */
export class InclusionProofQuery extends OrgQuery<
  OrgScope & { index?: number; leafHash?: Buffer; treeSize: number },
  { index: number; tree_size: number; leaf_hash: string; audit_path: string[] }
> {}

/**
 * The inclusion proofs of many entries in one tree (for an audit package): the answers of
 * `GET /log/{org}/proof/inclusion?index=I&tree_size=N` for each index, in the order given, read in a few
 * statements whatever their number, and without holding more of the log than the proofs themselves.
 */
export class InclusionProofsQuery extends OrgQuery<
  OrgScope & { indexes: number[]; treeSize: number },
  Array<{ index: number; tree_size: number; leaf_hash: string; audit_path: string[] }>
> {}

/** `GET /log/{org}/proof/consistency?first=M&second=N`. */
export class ConsistencyProofQuery extends OrgQuery<OrgScope & { first: number; second: number }, { first: number; second: number; consistency_path: string[] }> {}

/** `GET /log/{org}/lookup?kind=K&id=ID`. */
export class LookupEntryQuery extends OrgQuery<OrgScope & { kind: string; id: string }, EntryAnswer> {}

export interface KeyAnswer {
  name: string;
  key_id: string;
  algorithm: 'ed25519';
  public_key: string;
  vkey: string;
  active: boolean;
}

/** `GET /log/keys`. */
export class ListLogKeysQuery extends Query<{ keys: KeyAnswer[] }> {}
