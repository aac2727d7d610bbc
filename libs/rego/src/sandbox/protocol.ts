/**
 * Messages between the sandbox host and its workers. Everything here must survive structured cloning: plain
 * data, bigint, no functions and no class instances (errors travel as SandboxErrorInfo, not Error objects, so
 * their code and location are not lost).
 */
export interface SandboxRequest {
  /** Module file name -> Rego source. */
  files: Record<string, string>;
  /** A reference (`data.policy`) answered with its value, or a general query answered with binding rows. */
  query: string;
  input?: unknown;
  /**
   * The input as JSON text instead (takes precedence over `input`): a string crosses to the worker thread without
   * a structured clone of the whole document and is parsed once there.
   */
  inputJson?: string;
  data?: unknown;
  /**
   * Identity of `data` (e.g. a digest of the data document). When given, workers keep the document and later
   * requests with the same key do not copy it to the worker again.
   */
  dataKey?: string;
  /** time.now_ns() for this evaluation; the engine's clock when absent. */
  nowNs?: bigint;
  /** Wall-clock budget from submission (queueing included). Defaults to the sandbox's defaultDeadlineMs. */
  deadlineMs?: number;
  /** Evaluation step budget (policy_resource_limit when exhausted). */
  maxSteps?: number;
  strict?: boolean;
  strictBuiltinErrors?: boolean;
  /**
   * The files are an OPA bundle (compileBundle): a `.manifest` (rego_version, file_rego_versions, roots) and
   * data.json/data.yaml documents among them are honoured; the bundle's data is used unless `data` is given.
   */
  bundle?: boolean;
  /** Rego version of modules nothing else decides (default 1; 0 is OPA's --v0-compatible). */
  regoVersion?: 0 | 1;
  /** Force the answer shape instead of guessing it from the query. */
  kind?: 'value' | 'rows';
}

/**
 * What the host posts. The first attempt leaves out the files (and data with a dataKey): a worker that has them
 * cached answers at once, one that does not answers `missing` and the host resends them, so a large repeated
 * bundle or data document is not copied into a worker on every request.
 */
export interface WorkerTask extends Omit<SandboxRequest, 'deadlineMs' | 'files'> {
  files?: Record<string, string>;
  digest: string;
  /** data is included (with dataKey it is then cached under that key). */
  hasData: boolean;
  deadlineAt: number; // Date.now() based, so time spent queued counts
  cacheSize: number;
  /** Module whose `builtins` export (BuiltinDecl[]) declares the embedder's custom builtins. */
  builtinsModule?: string;
  dataCacheSize: number;
  /** OS niceness the worker thread takes before its first evaluation (0: unchanged). */
  niceness: number;
}

/** Worker reply when it lacks the bundle or data document the task only referred to. */
export interface WorkerMissing {
  missing: true;
}

export interface SandboxErrorInfo {
  code: string;
  message: string;
  location?: { file: string; row: number; col: number };
  errors?: SandboxErrorInfo[];
}

export interface SandboxStats {
  /** The compiled bundle came from the worker's digest cache. */
  cached: boolean;
  compileMs: number;
  /** time to parse `inputJson` in the worker (0 when the input came as a value) */
  parseMs: number;
  evalMs: number;
  digest: string;
}

export type SandboxResult =
  | ({ ok: true; value?: unknown; results?: Array<Record<string, unknown>>; prints: string[] } & SandboxStats)
  | { ok: false; error: SandboxErrorInfo; prints?: string[] };
