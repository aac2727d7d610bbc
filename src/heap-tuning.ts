import { setFlagsFromString } from 'node:v8';

/**
 * Short-lived Buffers reclaimed young again on Node 24. V8 13.6 (Node 24.0) raised the default of
 * `--scavenger-max-new-space-capacity-mb` from 8 to 32, and with it the amount of young ArrayBuffer memory that
 * triggers a cheap young-generation collection, above the fixed external-memory limit that starts a full
 * mark-compact. A service whose requests allocate buffers (every attachment: the socket reads, the joined file,
 * pg's bind message) then reclaims them by mark-compacts, several a second: on a 100 KB attestation Node 24 spent
 * about twice Node 20's CPU per request. Setting the flag back to 8 (the value of Node 20 and 22) restores
 * young collections; V8 reads it when a backing store is allocated, so setting it at start-up is enough.
 */
const YOUNG_BUFFER_FLAG = '--scavenger-max-new-space-capacity-mb';
const RESTORED_MB = 8;
/** The first V8 with the larger default. */
const FROM_V8: [number, number] = [13, 6];

/**
 * The flag to set for this runtime, or null: only on a V8 with the larger default, and never over an operator's
 * own choice on the command line (`node --scavenger-max-new-space-capacity-mb=N dist/src/main.js`).
 */
export function youngBufferFlag(v8Version: string, execArgv: readonly string[]): string | null {
  const [major, minor] = v8Version.split('.').map(Number);
  if (!(major > FROM_V8[0] || (major === FROM_V8[0] && minor >= FROM_V8[1]))) return null;
  const named = (arg: string) => arg.replace(/_/g, '-').startsWith(YOUNG_BUFFER_FLAG);
  if (execArgv.some(named)) return null;
  return `${YOUNG_BUFFER_FLAG}=${RESTORED_MB}`;
}

/** Applies `youngBufferFlag` to this process; answers the flag set (for the start-up log), or null. */
export function tuneHeapForBuffers(): string | null {
  const flag = youngBufferFlag(process.versions.v8, process.execArgv);
  if (flag) setFlagsFromString(flag);
  return flag;
}
