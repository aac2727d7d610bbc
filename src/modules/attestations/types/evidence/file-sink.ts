/** Where the bytes of one file of the evidence go, chunk by chunk (`open` returns null to skip a file). */
export interface FileSink {
  write(chunk: Buffer): void;
  end(): void;
  /**
   * Optional fast path for a file that is in memory whole (a single attached file, not one inside an
   * archive): true when the sink read it all (as write + end would have), false when it did nothing that
   * counts and wants the file through write and end as usual.
   */
  whole?(content: Buffer): boolean;
}
