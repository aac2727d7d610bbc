import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeBlocked, firstBlocked, lookupPostgresAccount, runningAsRoot } from './postgres-account';

/** Where clusters of default data folders the postgres OS user cannot reach are kept (as root). */
export const SHARED_CLUSTER_ROOT = '/var/lib/veritrail';

export interface ClusterLocation {
  /** The PostgreSQL cluster's folder. */
  clusterDir: string;
  /** Set when the cluster is kept away from the data folder: why (the folder the postgres user cannot pass). */
  movedBecause?: string;
}

/**
 * Where the embedded cluster of a data folder lives: `<dataDir>/pg`, except as root with the default data folder
 * (`./.data`, DATA_DIR not set) in a place the `postgres` OS user cannot reach (a clone under /root, the most
 * common first try in a container or VM). The cluster is then kept in `/var/lib/veritrail/<key>/pg`, the key a
 * hash of the data folder's path, so every clone has its own and the same clone finds its data again. The rest
 * of the data folder (operator token, database password, owner record) stays where it is: only root reads them.
 *
 * A DATA_DIR set explicitly is never moved: that folder must be reachable, or the start is refused in one line.
 * A cluster once kept away stays there while the data folder has none of its own, even if the data folder
 * becomes reachable later, so a chmod never swaps the service's data for an empty database.
 */
export function clusterLocation(dataDir: string, options: { dataDirIsDefault: boolean; sharedRoot?: string }): ClusterLocation {
  const resolved = path.resolve(dataDir);
  const own = path.join(resolved, 'pg');
  if (!options.dataDirIsDefault || !runningAsRoot()) return { clusterDir: own };
  const shared = path.join(options.sharedRoot ?? SHARED_CLUSTER_ROOT, clusterKey(resolved), 'pg');
  const blocked = firstBlocked(resolved, lookupPostgresAccount(), false);
  if (blocked) return { clusterDir: shared, movedBecause: describeBlocked(blocked) };
  if (!fs.existsSync(path.join(own, 'PG_VERSION')) && fs.existsSync(path.join(shared, 'PG_VERSION'))) {
    return { clusterDir: shared, movedBecause: `it was kept there before and ${own} has no cluster` };
  }
  return { clusterDir: own };
}

/** 16 hex digits of the sha256 of the data folder's absolute path. */
export function clusterKey(dataDir: string): string {
  return createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
}
