/**
 * The verifier's own implementation of every format it checks (RFC 8785 JCS, RFC 6962/9162 Merkle proofs, C2SP
 * signed notes and checkpoints, DSSE v1), written from the public standards and sharing no code with the
 * service's write path (libs/transparency/src). formats.spec.ts checks that the two implementations agree.
 */
export { JcsError, jcsCanonicalize, jcsNumber, compareCodeUnits } from './jcs';
export { merkleLeafHash, merkleNodeHash, merkleEmptyRoot, merkleVerifyInclusion, merkleVerifyConsistency } from './merkle';
export { readVerifierKey, noteKeyIdHex, openSignedNote, openSignedCheckpoint } from './signed-note';
export type { TrustedNoteKey, NoteSignatureLine, OpenedSignedNote, OpenedCheckpointNote } from './signed-note';
export { dssePae, openDsseEnvelope } from './dsse';
export type { OpenedEnvelope } from './dsse';
