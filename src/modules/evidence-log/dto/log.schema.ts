import { arrayOf, boolean, describe, integer, nullable, object, oneOf, string } from '../../../common/openapi/response-schema';

const base64 = describe(string, 'base64');
const entry = object({ index: nullable(integer), leaf: describe(string, 'the RFC 8785 canonical JSON of the entry'), leaf_hash: base64 });

export const CHECKPOINT_SCHEMA = describe(string, 'a C2SP signed note whose text is a tlog-checkpoint');
export const ENTRIES_SCHEMA = object({ tree_size: integer, entries: arrayOf(entry) });
export const ENTRY_SCHEMA = entry;
export const INCLUSION_SCHEMA = object({ index: integer, tree_size: integer, leaf_hash: base64, audit_path: arrayOf(base64) });
export const CONSISTENCY_SCHEMA = object({ first: integer, second: integer, consistency_path: arrayOf(base64) });
export const KEYS_SCHEMA = object({
  keys: arrayOf(
    object({ name: string, key_id: describe(string, '8 hex digits'), algorithm: oneOf('ed25519'), public_key: base64, vkey: string, active: boolean }),
  ),
});
