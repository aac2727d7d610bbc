import type { RuleOutcome, SummaryExpression, SummaryValue } from './program';

/** What a custom attestation type asks of its data: an optional JSON Schema, jq rules, summary expressions. */
export interface RuleSet {
  /** A JSON Schema (draft-07 unless its `$schema` names 2019-09 or 2020-12), or null. */
  schema: unknown | null;
  /** A stable key of `schema` (a digest), so a worker compiles each schema once. */
  schemaKey: string | null;
  rules: readonly string[];
  summary: readonly SummaryExpression[];
}

export type WorkerTask =
  | { id: number; kind: 'check'; set: RuleSet }
  | { id: number; kind: 'assess'; set: RuleSet; /** the attestation data as JSON text */ dataText: string };

/** Problems of a rule set found when a type is created: each keyed by where it is. */
export interface CheckResult {
  /** Why the schema is not a usable JSON Schema, or null. */
  schema: string | null;
  /** jq's compile error of each rule that does not compile. */
  rules: Array<{ index: number; message: string }>;
  summary: Array<{ index: number; message: string }>;
}

export interface AssessResult {
  /** Where the data breaks the schema (at most 20), empty when it fits or there is no schema. */
  schemaErrors: string[];
  outcomes: RuleOutcome[];
  summary: SummaryValue[];
}

export type WorkerReply =
  | { id: number; ok: true; check: CheckResult }
  | { id: number; ok: true; assess: AssessResult }
  | { id: number; ok: false; message: string };
