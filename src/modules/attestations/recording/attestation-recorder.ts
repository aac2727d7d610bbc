import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../common/config/app-config';
import { EvidenceLog, LogAppend } from '../../evidence-log/evidence-log.module';
import { toAttestationResponse } from '../dto/attestation.response';
import { AttestationReader, AttestationRow, isUuid } from '../persistence/attestation.reader';
import { orderedUuid } from '../../../database/ordered-uuid';
import { EntityManager } from 'typeorm';
import { normaliseExternalUrls } from '../../../common/evidence/evidence-validators';
import { NotFoundError } from '../../../common/errors/app-error';
import { ArtifactDirectory } from '../../artifacts/artifacts.module';
import { FlowDirectory } from '../../flows/flows.module';
import { EnsuredTrail, TrailLedger } from '../../ledger/ledger.module';
import { SubscriptionCopy } from '../../outbox/outbox.module';
import { RepoDirectory } from '../../repos/repos.module';
import { ATTESTATION_RECORDED, AttestationRepository, AttestationWriteRow, GroupRow } from '../persistence/attestation.repository';
import { EvidenceStore } from '../persistence/evidence.store';
import { AttestationRecordFields, AttestationTypeDefinition } from '../types/attestation-type';
import { StagedEvidence } from '../upload/staged-evidence';

/** A one-statement group write that committed but did not come back as expected; never retried. */
export class GroupCommittedError extends Error {}

/** Attachments up to this size may go in a one-statement group write (they are sent as parameters). */
const GROUP_BLOB_MAX_BYTES = 1024 * 1024;

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
  rows: AttestationWriteRow[];
}

interface Planned {
  input: RecordAttestationInput;
  fields: AttestationRecordFields;
  isCompliant: boolean;
}

/**
 * The write path of every attestation type. Three ways through it, with the same rows as a result (ids and
 * times aside; test/attestations/write-paths.e2e-spec.ts checks it):
 * - `record`: one attestation in the caller's transaction (prepare, then insert);
 * - `prepareMany` + `insert`: a group of one flow in one transaction, set-based;
 * - `recordGroupAtOnce`: a group of any flows and orgs in one statement (the common ingest case).
 * Each attestation's rows come from `buildRows`, its moment from the ledger (TrailLedger / MomentSql), its
 * flow_seq and created_at from the flow counter, and its `attestation.recorded` events (for orgs that subscribe
 * to them) from the same statement as its rows (AttestationRepository, with the outbox's OutboxSql). The
 * evidence log takes committed rows by itself (`onModuleInit` registers them as a log source).
 */
@Injectable()
export class AttestationRecorder implements OnModuleInit {
  constructor(
    private readonly ledger: TrailLedger,
    private readonly artifacts: ArtifactDirectory,
    private readonly repos: RepoDirectory,
    private readonly store: EvidenceStore,
    private readonly attestations: AttestationRepository,
    private readonly subscriptions: SubscriptionCopy,
    private readonly reader: AttestationReader,
    private readonly evidenceLog: EvidenceLog,
    private readonly flows: FlowDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // An attestation shows its flow's name as of its created_at, stamped under the flow's counter row.
    this.flows.holdOnRename((manager, orgId, flowId) => this.attestations.holdFlowCounter(manager, orgId, flowId));
    this.evidenceLog.registerSource('attestation', {
      next: async (manager, positions, limit) =>
        (await this.reader.committedAfter(manager, positions, limit)).map((row) => ({
          stream: row.log_stream,
          position: Number(row.log_position),
          item: this.logEntry(row),
        })),
      render: async (manager, ids) => (await this.reader.writtenInTransaction(manager, ids.filter(isUuid))).map((row) => this.logEntry(row)),
    });
  }

  /** prepare + insert: one attestation in the caller's transaction. */
  async record(manager: EntityManager, input: RecordAttestationInput): Promise<RecordedAttestation> {
    const [prepared] = await this.prepareMany(manager, [input]);
    await this.insert(manager, [prepared]);
    return prepared;
  }

  /**
   * Blobs -> trails (created if missing, locked in name order) -> artifact checks -> repos -> moments, for a
   * group of attestations of one flow (same org and flow name), with one statement per step however large the
   * group. Throws if any attestation of the group cannot be recorded (the caller then records them one by one
   * to answer each).
   */
  async prepareMany(manager: EntityManager, inputs: RecordAttestationInput[]): Promise<PreparedAttestation[]> {
    const { orgId, flowName, actor } = inputs[0];
    const items = inputs.map(plan);

    const blobs = distinctBlobs(inputs);
    if (blobs.length === 1) await this.store.put(manager, blobs[0]);
    else if (blobs.length) await this.store.putMany(manager, blobs);

    const trails = await this.ledger.ensureTrails(
      manager,
      { orgId, flowName, actor },
      items.map((i) => i.input.trailName),
    );

    const withArtifact = items.filter((i) => i.fields.artifactFingerprint);
    const artifactNames = await this.artifacts.templateNamesOf(
      manager,
      withArtifact.map((i) => ({ trailId: trails.get(i.input.trailName)!.trailId, fingerprint: i.fields.artifactFingerprint! })),
    );

    const placed = items.map((item) => {
      const trail = trails.get(item.input.trailName)!;
      const slots = new Set<string | null>();
      if (item.fields.artifactFingerprint) {
        const artifactName = artifactNames.get(`${trail.trailId}/${item.fields.artifactFingerprint}`);
        if (artifactName === undefined) {
          throw new NotFoundError(
            `Artifact with fingerprint '${item.fields.artifactFingerprint}' not found in trail '${item.input.trailName}' of flow '${flowName}'`,
          );
        }
        slots.add(artifactName);
      }
      for (const target of item.fields.targetArtifacts ?? []) slots.add(target);
      if (!slots.size) slots.add(null);
      return { ...item, trail, slots: [...slots] };
    });

    for (const item of placed) {
      if (item.fields.repoInfo) await this.repos.register(manager, orgId, item.fields.repoInfo);
    }

    const ids = placed.map((item) => item.slots.map(() => orderedUuid()));
    const moments = await this.ledger.recordMoments(
      manager,
      'attestation',
      placed.map((item, i) => ({ trailId: item.trail.trailId, subjectId: ids[i][0] })),
    );
    return placed.map((item, i) => prepared(item, item.trail, ids[i], item.slots, moments[i].momentNumber));
  }

  /** Inserts prepared attestations of one flow under its counter (see AttestationRepository.insert). */
  insert(manager: EntityManager, prepared: PreparedAttestation[]): Promise<void> {
    return this.attestations.insert(
      manager,
      prepared.flatMap((p) => p.rows),
    );
  }

  /**
   * The evidence log entry of an attestation row: the attestations are their own queue (the log's sequencer
   * takes each flow's rows in flow_seq order once committed), so the write paths pay nothing for the log. The
   * entry's record is the row as the read route `GET /attestations/{org}?attestation_id=<id>` answers it (same
   * columns, same mapper); rows never change, so building it after the commit gives what the writer would have.
   */
  private logEntry(row: AttestationRow & { org_id: string; recorded_at: string }): LogAppend {
    return {
      orgId: row.org_id,
      org: row.org_name,
      kind: 'attestation',
      id: row.id,
      record: toAttestationResponse(row, this.config.publicBaseUrl),
      recordedAt: row.recorded_at,
      locators: {
        flow: row.flow_name,
        trail: row.trail_name,
        moment: row.moment_number,
        ...(row.artifact_fingerprint ? { fingerprint: row.artifact_fingerprint } : {}),
        ...(row.evidence_sha256 ? { evidence_sha256: row.evidence_sha256 } : {}),
      },
    };
  }

  /**
   * The common case in one statement, outside any explicit transaction: every trail exists and no attestation
   * names an artifact fingerprint or a repo (those need lookups). The attestations may belong to any flows of
   * any orgs. Returns null, having written nothing, when the group does not qualify or a flow or trail does not
   * exist yet (the caller then takes the general path, which creates them).
   */
  async recordGroupAtOnce(inputs: RecordAttestationInput[]): Promise<RecordedAttestation[] | null> {
    const items = inputs.map(plan);
    if (items.some((i) => i.fields.artifactFingerprint || i.fields.repoInfo)) return null;
    if (items.some((i) => i.input.evidence && i.input.evidence.size > GROUP_BLOB_MAX_BYTES)) return null;

    const perTrail = new Map<string, number>();
    const planned = items.map((item) => {
      const key = `${item.input.orgId}\u0000${item.input.flowName}\u0000${item.input.trailName}`;
      const pos = (perTrail.get(key) ?? 0) + 1;
      perTrail.set(key, pos);
      const slots = item.fields.targetArtifacts?.length ? [...new Set(item.fields.targetArtifacts)] : [null];
      const ids = slots.map(() => orderedUuid());
      const rows = buildRows(item, UNPLACED, ids, slots, 0).map(
        (row, slot): GroupRow => Object.assign(row, { flow_name: item.input.flowName, trail_name: item.input.trailName, pos, first_slot: slot === 0 }),
      );
      return { ids, rows };
    });
    const rows = planned.flatMap((p) => p.rows);
    // Orgs without a subscription to attestation events (most) get the statement without its event part.
    const subscribed = await this.subscriptions.snapshot();
    const events = inputs.some((i) => subscribed.wants(i.orgId, ATTESTATION_RECORDED))
      ? { withEvents: true as const }
      : { unchangedSince: subscribed.version };
    // Blobs kept outside PostgreSQL are stored first, under their content address; the statement stores the rest.
    const inlineBlobs = await this.store.putAhead(distinctBlobs(inputs));
    const inserted = await this.attestations.insertGroupAtOnce(rows, inlineBlobs, events);
    if (!inserted.length) {
      // A missing flow or trail, or subscriptions newer than this process's copy: the general path writes it.
      if ('unchangedSince' in events) await this.subscriptions.refresh();
      return null;
    }
    if (inserted.length !== rows.length) {
      // Committed already: must not be retried (that would record attestations twice).
      throw new GroupCommittedError(`group insert wrote ${inserted.length} of ${rows.length} rows`);
    }
    const byId = new Map(inserted.map((row) => [row.id, row]));
    return planned.map(({ ids }) => {
      const first = byId.get(ids[0])!;
      return { attestationIds: ids, flowId: first.flow_id, trailId: first.trail_id, momentNumber: Number(first.moment_number), trailCreated: false };
    });
  }
}

const UNPLACED: Pick<EnsuredTrail, 'flowId' | 'trailId' | 'created'> = { flowId: '', trailId: '', created: false };

function plan(input: RecordAttestationInput): Planned {
  return { input, fields: input.type.toRecord(input.data), isCompliant: input.type.isCompliant(input.data) };
}

function distinctBlobs(inputs: RecordAttestationInput[]): StagedEvidence[] {
  const blobs = new Map<string, StagedEvidence>();
  for (const input of inputs) if (input.evidence) blobs.set(input.evidence.sha256Hex, input.evidence);
  return [...blobs.values()];
}

function prepared(
  item: Planned,
  trail: Pick<EnsuredTrail, 'flowId' | 'trailId' | 'created'>,
  ids: string[],
  slots: Array<string | null>,
  momentNumber: number,
): PreparedAttestation {
  return {
    attestationIds: ids,
    flowId: trail.flowId,
    trailId: trail.trailId,
    momentNumber,
    trailCreated: trail.created,
    rows: buildRows(item, trail, ids, slots, momentNumber),
  };
}

/** The rows of one attestation, one per slot it fills: the one mapping from a type's fields to the columns. */
export function buildRows(
  item: Planned,
  trail: Pick<EnsuredTrail, 'flowId' | 'trailId'>,
  ids: string[],
  slots: Array<string | null>,
  momentNumber: number,
): AttestationWriteRow[] {
  const { input, fields } = item;
  const common = {
    org_id: input.orgId,
    flow_id: trail.flowId,
    trail_id: trail.trailId,
    moment_number: momentNumber,
    name: fields.attestationName,
    artifact_fingerprint: fields.artifactFingerprint ?? null,
    attestation_type: input.type.name,
    schema_version: input.type.schemaVersion,
    is_compliant: item.isCompliant,
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
  // One row per slot; the last (usually the only) one is `common` itself (no copy on the hot path).
  return slots.map((artifactName, i) => {
    const row = (i === slots.length - 1 ? common : { ...common }) as AttestationWriteRow;
    row.id = ids[i];
    row.artifact_name = artifactName;
    return row;
  });
}

