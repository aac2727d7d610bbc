import { ReportedInstance, ReportedItem } from '../domain/report-summary';

/**
 * What every report body has: the items (pods, tasks, containers ...), each with its `digests` (artifact name
 * -> digest), and, optionally, the type's name.
 */
export interface ReportBody {
  type?: string | null;
  artifacts: ReadonlyArray<{ digests: Readonly<Record<string, string>> }>;
}

/**
 * One kind of physical environment (plain data, no Nest): the report it takes and how that report reads as
 * running artifacts. The report route is `PUT /environments/{org}/{env}/report/<name>` and the type of an
 * environment created for it is `<name>`; a new kind is one module that registers one of these
 * (`EnvironmentTypeModule.register(definition)`).
 */
export interface EnvironmentTypeDefinition<R extends ReportBody = ReportBody> {
  /** Path segment and `type` value, case-sensitive: `K8S`, `ECS`, `S3`, `docker`, `server`, `lambda`. */
  name: string;
  /** The report body DTO, validated at the edge (unknown fields rejected at every depth). */
  reportClass: new () => R;
  /**
   * Each item of the report: its digests, start time and per-instance context (read only when the report makes
   * a snapshot; whether it does depends on the items' digests alone).
   */
  items(report: R): ReportedItem[];
  /** Fields an artifact of a snapshot of this type shows besides the common ones (K8S: `pods`). */
  present(instances: readonly ReportedInstance[]): Record<string, unknown>;
}

/** The type name of logical environments: they group physical ones and take no reports. */
export const LOGICAL = 'logical';
