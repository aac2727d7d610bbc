import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { RepoRegistry } from '../../repos/persistence/repo-registry';
import { TrailWriter } from '../../trails/persistence/trail-writer';
import { normaliseExternalUrls } from '../../../common/evidence/evidence-validators';
import { AttestationRecordFields, AttestationTypeDefinition } from '../types/attestation-type';
import { StagedEvidence } from '../upload/staged-evidence';
import { EvidenceStore } from './evidence-store';
import { preparedQuery } from './prepared-query';

/** A one-statement group write that committed but did not come back as expected; never retried. */
export class GroupCommittedError extends Error {}

/** Attachments up to this size may go in a one-statement group write (they are sent as parameters). */
const GROUP_BLOB_MAX_BYTES = 1024 * 1024;

export const FLOW_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_~]*$/;
export const TRAIL_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;

export interface RecordAttestationInput {
  orgId: string;
  flowName: string;
  trailName: string;
  /** reported_by: the caller's e-mail or service account name */
  actor: string;
  type: AttestationTypeDefinition<any>;
  /** Validated data of that type. */
  data: object;
  evidence?: StagedEvidence | null;
}

export interface RecordedAttestation {
  /** One id per slot filled (usually one). */
  attestationIds: string[];
  flowId: string;
  trailId: string;
  momentNumber: number;
  trailCreated: boolean;
}

/** An attestation whose trail is locked and moment recorded; its rows are written by `insert`. */
export interface PreparedAttestation extends RecordedAttestation {
  rows: Array<Record<string, unknown>>;
}

/** Path parameters of evidence routes; checked before anything is created. */
export function checkFlowAndTrailNames(flowName: string, trailName: string): void {
  const errors: Record<string, string> = {};
  if (!FLOW_NAME.test(flowName)) errors['path.flow_name'] = `must match ${FLOW_NAME.source}`;
  if (!TRAIL_NAME.test(trailName)) errors['path.trail_name'] = `must match ${TRAIL_NAME.source}`;
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/**
 * The write path of every attestation type, inside the caller's transaction:
 * `prepare` (blob -> trail, auto-created and locked -> artifact check -> repo -> moment), then `insert`
 * (flow counter -> rows, one statement). The flow's counter row is taken last, so the per-flow lock is held
 * only for that statement and the commit. `insert` takes several prepared attestations of one flow, so a
 * batch (AttestationBatcher) pays for the counter, the insert and the commit once.
 */
@Injectable()
export class AttestationRecorder {
  constructor(
    private readonly trails: TrailWriter,
    private readonly store: EvidenceStore,
    private readonly repos: RepoRegistry,
    private readonly dataSource: DataSource,
  ) {}

  /** prepare + insert: one attestation in the caller's transaction. */
  async record(manager: EntityManager, input: RecordAttestationInput): Promise<RecordedAttestation> {
    const prepared = await this.prepare(manager, input);
    await this.insert(manager, [prepared]);
    return prepared;
  }

  async prepare(manager: EntityManager, input: RecordAttestationInput): Promise<PreparedAttestation> {
    const fields: AttestationRecordFields = input.type.toRecord(input.data);
    const isCompliant = input.type.isCompliant(input.data);
    if (input.evidence) await this.store.put(manager, input.evidence);

    const trail = await this.trails.ensureTrail(manager, input.orgId, input.flowName, input.trailName, input.actor);

    const slots = new Set<string | null>();
    if (fields.artifactFingerprint) {
      const artifact = await this.trails.findArtifactInTrail(manager, trail.trailId, fields.artifactFingerprint);
      if (!artifact) {
        throw new NotFoundError(
          `Artifact with fingerprint '${fields.artifactFingerprint}' not found in trail '${input.trailName}' of flow '${input.flowName}'`,
        );
      }
      slots.add(artifact.templateReferenceName);
    }
    for (const target of fields.targetArtifacts ?? []) slots.add(target);
    if (!slots.size) slots.add(null);

    if (fields.repoInfo) await this.repos.register(manager, input.orgId, fields.repoInfo);

    const ids = [...slots].map(() => randomUUID());
    const moment = await this.trails.recordMoment(manager, trail.trailId, 'attestation', ids[0]);

    return buildPrepared(input, fields, isCompliant, trail, ids, [...slots], moment.momentNumber);
  }

  /**
   * `prepare` for a group of attestations of one flow (same org and flow name), set-based: one statement each
   * for the blobs, the trail locks (name order), the artifact checks and the moments, however large the group.
   * Trails that do not exist yet are created through TrailWriter.ensureTrail. Throws if any attestation of
   * the group cannot be recorded (the caller then records them one by one to answer each).
   */
  async prepareMany(manager: EntityManager, inputs: RecordAttestationInput[]): Promise<PreparedAttestation[]> {
    const { orgId, flowName, actor } = inputs[0];
    const items = inputs.map((input) => ({
      input,
      fields: input.type.toRecord(input.data),
      isCompliant: input.type.isCompliant(input.data),
    }));

    const blobs = new Map<string, StagedEvidence>();
    for (const { input } of items) if (input.evidence) blobs.set(input.evidence.sha256Hex, input.evidence);
    if (blobs.size) await this.store.putMany(manager, [...blobs.values()]);

    const names = [...new Set(items.map((i) => i.input.trailName))].sort();
    const locked: Array<{ id: string; name: string; flow_id: string; template_id: string | null }> = await manager.query(
      `SELECT t.id, t.name, t.flow_id, t.template_id
       FROM flows f JOIN trails t ON t.flow_id = f.id
       WHERE f.org_id = $1 AND f.name = $2 AND t.name = ANY($3::text[])
       ORDER BY t.name
       FOR UPDATE OF t`,
      [orgId, flowName, names],
    );
    const trails = new Map<string, { flowId: string; trailId: string; templateId: string | null; created: boolean }>(
      locked.map((t) => [t.name, { flowId: t.flow_id, trailId: t.id, templateId: t.template_id, created: false }]),
    );
    for (const name of names) {
      if (!trails.has(name)) trails.set(name, await this.trails.ensureTrail(manager, orgId, flowName, name, actor));
    }

    const withArtifact = items.filter((i) => i.fields.artifactFingerprint);
    const artifacts = new Map<string, string>();
    if (withArtifact.length) {
      const found: Array<{ trail_id: string; fingerprint: string; template_reference_name: string }> = await manager.query(
        `SELECT DISTINCT ON (a.trail_id, a.fingerprint) a.trail_id, a.fingerprint, a.template_reference_name
         FROM artifacts a JOIN unnest($1::uuid[], $2::text[]) AS w(trail_id, fingerprint)
           ON a.trail_id = w.trail_id AND a.fingerprint = w.fingerprint
         ORDER BY a.trail_id, a.fingerprint, a.moment_number DESC`,
        [withArtifact.map((i) => trails.get(i.input.trailName)!.trailId), withArtifact.map((i) => i.fields.artifactFingerprint)],
      );
      for (const f of found) artifacts.set(`${f.trail_id}/${f.fingerprint}`, f.template_reference_name);
    }

    const planned = items.map((item) => {
      const trail = trails.get(item.input.trailName)!;
      const slots = new Set<string | null>();
      if (item.fields.artifactFingerprint) {
        const artifactName = artifacts.get(`${trail.trailId}/${item.fields.artifactFingerprint}`);
        if (artifactName === undefined) {
          throw new NotFoundError(
            `Artifact with fingerprint '${item.fields.artifactFingerprint}' not found in trail '${item.input.trailName}' of flow '${flowName}'`,
          );
        }
        slots.add(artifactName);
      }
      for (const target of item.fields.targetArtifacts ?? []) slots.add(target);
      if (!slots.size) slots.add(null);
      return { ...item, trail, slots: [...slots], ids: [...slots].map(() => randomUUID()) };
    });

    for (const item of planned) {
      if (item.fields.repoInfo) await this.repos.register(manager, orgId, item.fields.repoInfo);
    }

    // The moments, as TrailWriter.recordMoment numbers them, for all trails of the group in one statement:
    // each trail advances by its number of attestations, in arrival order.
    const perTrail = new Map<string, number>();
    const position = planned.map((item) => {
      const n = (perTrail.get(item.trail.trailId) ?? 0) + 1;
      perTrail.set(item.trail.trailId, n);
      return n;
    });
    const moments: Array<{ subject_id: string; moment_number: number }> = await manager.query(
      `WITH k AS (
         SELECT * FROM unnest($1::uuid[], $2::int[]) AS k(trail_id, n)
       ), u AS (
         UPDATE trails t SET last_moment = t.last_moment + k.n, updated_at = clock_timestamp()
         FROM k WHERE t.id = k.trail_id
         RETURNING t.id, t.last_moment, t.template_id, t.updated_at, k.n
       )
       INSERT INTO trail_moments (trail_id, moment_number, created_at, kind, template_id, subject_id)
       SELECT u.id, u.last_moment - u.n + s.i, u.updated_at, 'attestation', u.template_id, s.subject_id
       FROM u JOIN unnest($3::uuid[], $4::uuid[], $5::int[]) AS s(trail_id, subject_id, i) ON s.trail_id = u.id
       RETURNING subject_id, moment_number`,
      [
        [...perTrail.keys()],
        [...perTrail.values()],
        planned.map((item) => item.trail.trailId),
        planned.map((item) => item.ids[0]),
        position,
      ],
    );
    const momentOf = new Map(moments.map((m) => [m.subject_id, Number(m.moment_number)]));
    return planned.map((item) =>
      buildPrepared(item.input, item.fields, item.isCompliant, item.trail, item.ids, item.slots, momentOf.get(item.ids[0])!),
    );
  }

  /**
   * The common case in one statement, outside any explicit transaction: every trail exists and no attestation
   * names an artifact fingerprint or a repo. The attestations may belong to any flows (of any orgs): it locks
   * the trails (id order), records one moment per attestation, stores the (small) blobs, then takes each
   * flow's counter row and inserts the rows with dense per-flow flow_seq numbers: one round trip and one commit
   * for the whole group. Returns null, having written nothing, when a flow or trail does not exist yet (the
   * caller then takes the general path, which creates them). Same SQL effects as prepare/prepareMany + insert.
   */
  async recordGroupAtOnce(inputs: RecordAttestationInput[]): Promise<RecordedAttestation[] | null> {
    const items = inputs.map((input) => ({ input, fields: input.type.toRecord(input.data), isCompliant: input.type.isCompliant(input.data) }));
    if (items.some((i) => i.fields.artifactFingerprint || i.fields.repoInfo)) return null;
    if (items.some((i) => i.input.evidence && i.input.evidence.size > GROUP_BLOB_MAX_BYTES)) return null;

    // One entry per distinct trail (org, flow, trail name), with the number of attestations it takes.
    const trailKey = (input: RecordAttestationInput) => `${input.orgId}\u0000${input.flowName}\u0000${input.trailName}`;
    const perTrail = new Map<string, { input: RecordAttestationInput; n: number }>();
    let ord = 0;
    const planned = items.map((item) => {
      const key = trailKey(item.input);
      const entry = perTrail.get(key) ?? { input: item.input, n: 0 };
      entry.n += 1;
      perTrail.set(key, entry);
      const slots = item.fields.targetArtifacts?.length ? [...new Set(item.fields.targetArtifacts)] : [null];
      const ids = slots.map(() => randomUUID());
      const position = entry.n;
      // The statement's own columns go on each row as it is built (no copies: this runs per attestation).
      const prepared = buildPrepared(item.input, item.fields, item.isCompliant, { flowId: '', trailId: '', created: false }, ids, slots, 0, (row, slot) => {
        row.ord = ++ord;
        row.flow_name = item.input.flowName;
        row.trail_name = item.input.trailName;
        row.pos = position;
        row.first_slot = slot === 0;
      });
      return { item, position, prepared };
    });
    const rows = planned.flatMap(({ prepared }) => prepared.rows);

    const trails = [...perTrail.values()];
    const blobs = new Map<string, StagedEvidence>();
    for (const { input } of items) if (input.evidence) blobs.set(input.evidence.sha256Hex, input.evidence);
    const values: unknown[] = [
      trails.map((t) => t.input.orgId),
      trails.map((t) => t.input.flowName),
      trails.map((t) => t.input.trailName),
      trails.map((t) => t.n),
      JSON.stringify(rows),
    ];
    const blobTuples: string[] = [];
    for (const blob of blobs.values()) {
      values.push(blob.sha256, blob.size, await blob.read());
      blobTuples.push(`($${values.length - 2}::bytea, $${values.length - 1}::bigint, $${values.length}::bytea)`);
    }
    const blobCte = blobTuples.length
      ? `, b AS (
           INSERT INTO evidence_blobs (sha256, size, content)
           SELECT v.s, v.z, v.c FROM (VALUES ${blobTuples.join(', ')}) AS v(s, z, c), ok WHERE ok.ok
           ON CONFLICT (sha256) DO NOTHING
           RETURNING sha256
         )`
      : '';

    const inserted: Array<{ id: string; flow_id: string; trail_id: string; moment_number: number }> = await preparedQuery(
      this.dataSource,
      `veritrail_attestation_group_v2_b${blobTuples.length}`,
      `WITH k AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) AS k(org_id, flow_name, trail_name, n)
       ), locked AS (
         SELECT t.id, t.flow_id, k.org_id, k.flow_name, k.trail_name, k.n
         FROM k
         JOIN flows f ON f.org_id = k.org_id AND f.name = k.flow_name
         JOIN trails t ON t.flow_id = f.id AND t.name = k.trail_name
         ORDER BY t.id
         FOR UPDATE OF t
       ), ok AS (
         SELECT count(*) = cardinality($3::text[]) AS ok FROM locked
       ), u AS (
         UPDATE trails t SET last_moment = t.last_moment + l.n, updated_at = clock_timestamp()
         FROM locked l, ok WHERE t.id = l.id AND ok.ok
         RETURNING t.id, t.flow_id, l.org_id, l.flow_name, l.trail_name, t.last_moment, t.template_id, t.updated_at, l.n
       ), r AS (
         SELECT * FROM jsonb_to_recordset($5::jsonb) AS r(
           id uuid, ord int, flow_name text, trail_name text, pos int, first_slot boolean, org_id uuid, name text,
           artifact_name text, artifact_fingerprint text, attestation_type text, schema_version int, is_compliant boolean,
           description text, origin_url text, external_urls jsonb, annotations jsonb, user_data jsonb,
           git_commit_info jsonb, repo_info jsonb, data jsonb, evidence_sha256 text, evidence_filename text,
           evidence_size bigint, evidence_content_type text, reported_by text)
       ), ru AS (
         SELECT r.*, u.id AS trail_id, u.flow_id, u.last_moment - u.n + r.pos AS moment_number, u.template_id, u.updated_at
         FROM r JOIN u ON u.org_id = r.org_id AND u.flow_name = r.flow_name AND u.trail_name = r.trail_name
       ), m AS (
         INSERT INTO trail_moments (trail_id, moment_number, created_at, kind, template_id, subject_id)
         SELECT ru.trail_id, ru.moment_number, ru.updated_at, 'attestation', ru.template_id, ru.id
         FROM ru WHERE ru.first_slot
         RETURNING subject_id
       ), per_flow AS (
         -- the flow counters are taken last (after the moments), so they are held only for the insert and the commit
         SELECT ru.flow_id, count(*)::int AS n FROM ru, (SELECT count(*) FROM m) AS after_moments GROUP BY ru.flow_id
       ), c AS (
         UPDATE flows
         SET attestation_count = attestation_count + p.n,
             last_attested_at = GREATEST(clock_timestamp(), COALESCE(last_attested_at, '-infinity'::timestamptz))
         FROM per_flow p WHERE flows.id = p.flow_id
         RETURNING flows.id, attestation_count, last_attested_at, p.n
       )${blobCte}
       INSERT INTO attestations (id, org_id, flow_id, trail_id, flow_seq, moment_number, name, artifact_name,
         artifact_fingerprint, attestation_type, schema_version, is_compliant, description, origin_url, external_urls,
         annotations, user_data, git_commit_info, repo_info, data, evidence_sha256, evidence_filename, evidence_size,
         evidence_content_type, reported_by, created_at)
       SELECT ru.id, ru.org_id, c.id, ru.trail_id, c.attestation_count - c.n + row_number() OVER (PARTITION BY c.id ORDER BY ru.ord),
         ru.moment_number, ru.name, ru.artifact_name, ru.artifact_fingerprint, ru.attestation_type, ru.schema_version,
         ru.is_compliant, ru.description, ru.origin_url, ru.external_urls, ru.annotations, ru.user_data,
         ru.git_commit_info, ru.repo_info, ru.data, decode(ru.evidence_sha256, 'hex'), ru.evidence_filename,
         ru.evidence_size, ru.evidence_content_type, ru.reported_by, c.last_attested_at
       FROM ru JOIN c ON c.id = ru.flow_id
       ORDER BY ru.ord
       RETURNING id, flow_id, trail_id, moment_number`,
      values,
    );
    if (!inserted.length) return null;
    if (inserted.length !== rows.length) {
      // Committed already: must not be retried (that would record attestations twice).
      throw new GroupCommittedError(`group insert wrote ${inserted.length} of ${rows.length} rows`);
    }
    const byId = new Map(inserted.map((row) => [row.id, row]));
    return planned.map(({ prepared }) => {
      const first = byId.get(prepared.attestationIds[0])!;
      return {
        attestationIds: prepared.attestationIds,
        flowId: first.flow_id,
        trailId: first.trail_id,
        momentNumber: Number(first.moment_number),
        trailCreated: false,
      };
    });
  }

  /**
   * Allocates the next flow_seq numbers (dense: the counter row stays locked until commit) and inserts the
   * rows in that order, all in one statement. Every prepared attestation must belong to the same flow.
   */
  async insert(manager: EntityManager, prepared: PreparedAttestation[]): Promise<void> {
    const rows = prepared.flatMap((p) => p.rows).map((row, i) => ({ ...row, ord: i + 1 }));
    if (!rows.length) return;
    const flowId = prepared[0].flowId;
    if (prepared.some((p) => p.flowId !== flowId)) throw new Error('AttestationRecorder.insert: attestations of several flows');
    await manager.query(
      `WITH counter AS (
         UPDATE flows
         SET attestation_count = attestation_count + $2,
             last_attested_at = GREATEST(clock_timestamp(), COALESCE(last_attested_at, '-infinity'::timestamptz))
         WHERE id = $1
         RETURNING attestation_count, last_attested_at
       )
       INSERT INTO attestations (id, org_id, flow_id, trail_id, flow_seq, moment_number, name, artifact_name,
         artifact_fingerprint, attestation_type, schema_version, is_compliant, description, origin_url, external_urls,
         annotations, user_data, git_commit_info, repo_info, data, evidence_sha256, evidence_filename, evidence_size,
         evidence_content_type, reported_by, created_at)
       SELECT r.id, r.org_id, r.flow_id, r.trail_id, c.attestation_count - $2 + r.ord, r.moment_number, r.name,
         r.artifact_name, r.artifact_fingerprint, r.attestation_type, r.schema_version, r.is_compliant, r.description,
         r.origin_url, r.external_urls, r.annotations, r.user_data, r.git_commit_info, r.repo_info, r.data,
         decode(r.evidence_sha256, 'hex'), r.evidence_filename, r.evidence_size, r.evidence_content_type,
         r.reported_by, c.last_attested_at
       FROM counter c, jsonb_to_recordset($3::jsonb) AS r(
         id uuid, ord int, org_id uuid, flow_id uuid, trail_id uuid, moment_number int, name text, artifact_name text,
         artifact_fingerprint text, attestation_type text, schema_version int, is_compliant boolean, description text,
         origin_url text, external_urls jsonb, annotations jsonb, user_data jsonb, git_commit_info jsonb,
         repo_info jsonb, data jsonb, evidence_sha256 text, evidence_filename text, evidence_size bigint,
         evidence_content_type text, reported_by text)
       ORDER BY r.ord`,
      [flowId, rows.length, JSON.stringify(rows)],
    );
  }
}

function buildPrepared(
  input: RecordAttestationInput,
  fields: AttestationRecordFields,
  isCompliant: boolean,
  trail: { flowId: string; trailId: string; created: boolean },
  ids: string[],
  slots: Array<string | null>,
  momentNumber: number,
  /** Adds columns to each row (slot index) as it is built. */
  decorate?: (row: Record<string, unknown>, slot: number) => void,
): PreparedAttestation {
  const common: Record<string, unknown> = {
    org_id: input.orgId,
    flow_id: trail.flowId,
    trail_id: trail.trailId,
    moment_number: momentNumber,
    name: fields.attestationName,
    artifact_fingerprint: fields.artifactFingerprint ?? null,
    attestation_type: input.type.name,
    schema_version: input.type.schemaVersion,
    is_compliant: isCompliant,
    description: fields.description ?? '',
    origin_url: fields.originUrl ?? null,
    external_urls: normaliseExternalUrls(fields.externalUrls as Record<string, unknown>),
    annotations: fields.annotations ?? {},
    user_data: fields.userData ?? {},
    git_commit_info: fields.gitCommitInfo ?? null,
    repo_info: fields.repoInfo ?? null,
    data: fields.extra ?? {},
    evidence_sha256: input.evidence?.sha256Hex ?? null,
    evidence_filename: input.evidence?.filename ?? null,
    evidence_size: input.evidence?.size ?? null,
    evidence_content_type: input.evidence?.contentType ?? null,
    reported_by: input.actor,
  };
  return {
    attestationIds: ids,
    flowId: trail.flowId,
    trailId: trail.trailId,
    momentNumber,
    trailCreated: trail.created,
    rows: slots.map((artifactName, i) => {
      // One row per slot; the last (usually the only) one is `common` itself.
      const row = i === slots.length - 1 ? common : { ...common };
      row.id = ids[i];
      row.artifact_name = artifactName;
      decorate?.(row, i);
      return row;
    }),
  };
}
