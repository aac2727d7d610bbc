import { Sql, sql, SqlIdent } from '../../../database/sql';

/**
 * The name the flow `flow` (an alias of `flows`) had at `at` (a timestamptz expression of the caller's row,
 * such as its creation time): the old name of its first rename after `at`, else its name now. A record that
 * shows its flow's name shows it this way, so renaming a flow never changes how a record already written reads
 * (the evidence log hashes records as their routes read them). One index probe of `flow_renames` per row
 * (`flow_renames_target_idx`); a flow never renamed finds nothing there.
 */
export function flowNameAt(flow: SqlIdent, at: Sql): Sql {
  return sql`COALESCE((SELECT r.old_name FROM flow_renames r
    WHERE r.org_id = ${flow}.org_id AND r.flow_id = ${flow}.id AND r.renamed_at > ${at}
    ORDER BY r.renamed_at LIMIT 1), ${flow}.name)`;
}
