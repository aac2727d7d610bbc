import type { EntityManager } from 'typeorm';

/**
 * An attestation type: how its `data_json` is validated, how compliance is decided, and which of its fields
 * go into the common attestation columns versus the type's own `data`. Plain data, no Nest: a type module
 * registers one of these with the AttestationTypeRegistry (see README.md).
 */
export interface AttestationTypeDefinition<TData extends object = object> {
  /** `attestation_type` on the wire and in the `attestations.attestation_type` column. */
  readonly name: string;
  /** Stored on each row; bump when the type's `data` layout changes. */
  readonly schemaVersion: number;
  /** DTO class the `data_json` document is validated against (strict: unknown fields are 400). */
  readonly dataClass: new () => TData;
  /** Whether a multipart request of this type may carry an attachment file part. */
  readonly acceptsAttachment: boolean;
  /** The type's compliance rule: the verdict stored in `is_compliant`. */
  isCompliant(data: TData): boolean;
  /** Maps validated data onto the common columns; `extra` is stored as `data` and shown in responses as is. */
  toRecord(data: TData): AttestationRecordFields;
  /**
   * Optional: the type judges its evidence itself (the attachment's bytes, the org's own configuration) before
   * anything is written, for types whose verdict the service decides rather than takes on trust. When present,
   * its `isCompliant` replaces `isCompliant(data)`, and its `summary` (the typed fields a reader needs: test
   * counts, vulnerability counts, issue keys...) is stored in `data` beside `toRecord(data).extra`. Throw a
   * ValidationError for malformed evidence: a 400, and nothing is stored.
   */
  assess?(input: AssessmentInput<TData>): Promise<Assessment>;
}

/** What `assess` is given: the validated `data_json`, the org, and the staged attachment (not stored yet). */
export interface AssessmentInput<TData extends object = object> {
  orgId: string;
  data: TData;
  evidence: EvidenceReader | null;
}

/** A staged attachment as a type may read it: already hashed and size-checked. */
export interface EvidenceReader {
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  readonly sha256Hex: string;
  /** The whole content (bounded by the attachment limit), checked against its digest. */
  read(): Promise<Buffer>;
}

/** A type's own verdict on its evidence. */
export interface Assessment {
  isCompliant: boolean;
  /** Why it is not compliant (or notes when it is), shown to readers as `compliance_reasons`. */
  reasons?: string[];
  /** The type's typed fields, stored in the attestation's `data` and shown in every read shape. */
  summary?: Record<string, unknown>;
  /**
   * The `attestation_type` to record, for a type that stands for a family (`custom:<type name>`); the
   * definition's `name` when absent.
   */
  attestationType?: string;
  /**
   * What the verdict rests on that may change while it is made (a custom type archived while its rules run):
   * checked again in the transaction that writes the attestation, holding what it reads (FOR SHARE) to the
   * commit; throw to refuse, and nothing is written. An attestation with a recheck is written in a transaction
   * of its own, outside group commit, so the attestations that need none do not pay for it.
   */
  recheck?: (manager: EntityManager) => Promise<void>;
}

/** The columns every attestation type fills (see the attestations table). */
export interface AttestationRecordFields {
  attestationName: string;
  /** Ties the attestation to an artifact reported in the trail (its artifact slot). */
  artifactFingerprint?: string | null;
  /** Artifact template names whose slot `<artifact>.<name>` this attestation fills, reported or not. */
  targetArtifacts?: string[] | null;
  description?: string | null;
  originUrl?: string | null;
  externalUrls?: Record<string, unknown> | null;
  annotations?: Record<string, string> | null;
  userData?: unknown;
  gitCommitInfo?: object | null;
  repoInfo?: RepoInfo | null;
  extra?: Record<string, unknown>;
}

export interface RepoInfo {
  id?: string | null;
  name: string;
  url: string;
  provider?: string | null;
  description?: string | null;
  namespace_path?: string | null;
  additional_info?: Record<string, unknown> | null;
}
