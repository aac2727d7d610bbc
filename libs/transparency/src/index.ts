/** The trust layer's formats: Merkle log proofs, signed notes and checkpoints, JCS, DSSE, in-toto/SLSA. No Nest. */
export * from './merkle';
export * from './note';
export * from './checkpoint';
export * from './jcs';
export * from './dsse';
export * from './statement';
