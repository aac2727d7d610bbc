/** Where the bytes of one file of the evidence go, chunk by chunk (`open` returns null to skip a file). */
export interface FileSink {
  write(chunk: Buffer): void;
  end(): void;
}
