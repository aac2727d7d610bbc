import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { canonicalJson, parseCheckpoint, parseNote, sha256 } from '../../../../libs/transparency/src';
import { AppError } from '../../../common/errors/app-error';
import { JsonLogger } from '../../../common/logging/json-logger';
import { FindOrgAttestationQuery, ListFlowAttestationsQuery, OpenAttestationEvidenceQuery, OpenedEvidence } from '../../attestations/attestations.module';
import { EvaluationArchive } from '../../evaluations/evaluations.module';
import { GetCheckpointQuery, InclusionProofsQuery, ListEntriesQuery, ListLogKeysQuery, LookupEntryQuery } from '../../evidence-log/evidence-log.module';
import { GetTrailMomentQuery, GetTrailQuery } from '../../trails/trails.module';
import { PACKAGE_README, PackageManifest } from '../domain/package-layout';
import { Compression, TarGzipWriter } from '../domain/tar-gzip-writer';
import { GetTrailAuditPackageQuery } from './get-trail-audit-package.query';
import { GetArtifactAuditPackageQuery } from './get-artifact-audit-package.query';
import { GetArtifactsQuery } from '../../artifact-catalog/artifact-catalog.module';

/** What one package covers: a trail, or one artifact (its attestations, in the trail that reported it). */
interface PackageSpec {
  subject: PackageManifest['subject'];
  flowName: string;
  /** The trail whose attestations and evaluations are included. */
  trailName: string;
  recordFile: 'trail.json' | 'artifact.json';
  record: unknown;
  /** Which attestations (read shapes) and which log leaves belong to the subject. */
  includes(a: { trail_name: string; artifact_fingerprint?: string | null }): boolean;
  logged(leaf: { kind: string; id: string; flow?: string; trail?: string; fingerprint?: string }): boolean;
}

const PAGE = 500;
/** Inclusion proofs asked of the log at once. */
const PROOF_BATCH = 1000;

interface AttestationShape {
  attestation_id: string;
  trail_name: string;
  artifact_fingerprint: string | null;
  evidence: { sha256: string } | null;
}

/**
 * Writes an audit package (a trail's or an artifact's) as a gzip tar, streamed: files are written one after another with back-pressure,
 * so memory stays flat whatever the attachments' total size (one attachment's bytes at a time at most). Every
 * read goes through the owning module's query (the same a read route answers), so the package holds exactly
 * what those routes return. The manifest, holding every other file's SHA-256, is written last.
 */
@Injectable()
export class AuditPackageWriter {
  constructor(
    readonly queryBus: QueryBus,
    private readonly evaluations: EvaluationArchive,
    private readonly logger: JsonLogger,
  ) {}

  /**
   * The gzip stream the package is written to, in the background; a failure midway destroys the stream. A client
   * that goes away closes the stream: every write then rejects, so the writer stops instead of waiting for a drain
   * that never comes.
   */
  start(scope: { orgId: string; orgName: string }, spec: PackageSpec): Readable {
    const out = new TarGzipWriter();
    void this.fill(out, scope, spec).catch((error) => {
      if (!out.isClosed) out.stream.destroy(error instanceof Error ? error : new Error(String(error)));
    });
    return out.stream;
  }

  private async fill(out: TarGzipWriter, scope: { orgId: string; orgName: string }, spec: PackageSpec): Promise<void> {
    const props = { ...scope, flowName: spec.flowName, trailName: spec.trailName };
    const files: Record<string, string> = {};
    /** `digest`: the bytes' SHA-256 (hex) when already checked (an attachment, by the evidence store). */
    const add = async (name: string, content: Buffer | string, options: { digest?: string; compression?: Compression } = {}) => {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      files[name] = options.digest ?? sha256(bytes).toString('hex');
      await out.file(name, bytes, options.compression);
    };
    const json = (value: unknown) => canonicalJson(value);

    // The checkpoint first: every proof below is made at its size.
    const note: string = await this.queryBus.execute(new GetCheckpointQuery(scope));
    const checkpoint = parseCheckpoint(parseNote(note).text);
    const size = checkpoint.size;

    // This trail's log entries (covered by the checkpoint), by the locators their leaves carry: the org's log is
    // read a page at a time and only the subject's entries are kept, so memory does not grow with the log.
    const logged = new Map<string, { kind: string; id: string; index: number; leaf: string; leaf_hash: string; trail?: string; moment?: number }>();
    for (let start = 0; start < size; start += 1000) {
      const page: { entries: Array<{ index: number | null; leaf: string; leaf_hash: string }> } = await this.queryBus.execute(
        new ListEntriesQuery({ ...scope, start, limit: Math.min(1000, size - start) }),
      );
      if (page.entries.length === 0) break;
      for (const e of page.entries) {
        const leaf = JSON.parse(e.leaf) as { kind: string; id: string; flow?: string; trail?: string; fingerprint?: string; moment?: number };
        if (e.index !== null && e.index < size && spec.logged(leaf)) {
          logged.set(`${leaf.kind}/${leaf.id}`, { kind: leaf.kind, id: leaf.id, index: e.index, leaf: e.leaf, leaf_hash: e.leaf_hash, trail: leaf.trail, moment: leaf.moment });
        }
      }
    }

    await add(spec.recordFile, json(spec.record));

    // The trail's attestations as the service has them now, and any logged one it no longer has.
    // The list's elements are the attestation read shape (one shape on every route), so they are the records.
    const listed = new Map<string, AttestationShape>();
    for (let page = 1; ; page++) {
      const got: { data: AttestationShape[]; pagination: { page_count: number } } = await this.queryBus.execute(
        new ListFlowAttestationsQuery({ ...scope, flowName: props.flowName, page, perPage: PAGE }),
      );
      for (const a of got.data) if (spec.includes(a)) listed.set(a.attestation_id, a);
      if (page >= got.pagination.page_count) break;
    }
    const ids = new Set<string>(listed.keys());
    for (const e of logged.values()) if (e.kind === 'attestation') ids.add(e.id);

    const manifest: PackageManifest = {
      format: 'veritrail-audit-package/v1',
      org: props.orgName,
      subject: spec.subject,
      generated_at: new Date().toISOString(),
      checkpoint: { origin: checkpoint.origin, size, root_hash: checkpoint.rootHash.toString('base64') },
      records: [],
      missing_records: [],
      missing_evidence: [],
      files,
    };
    const leaves: Array<{ index: number; leaf: string; leaf_hash: string }> = [];
    const sorted = [...ids].sort();
    // Attachments are opened one ahead, their first slice already on its way: the next one's read (the database's
    // work) overlaps this one's writing.
    const open = (id: string) =>
      new Prefetched(this.queryBus.execute(new OpenAttestationEvidenceQuery({ ...scope, flowName: props.flowName, trailName: props.trailName, attestationId: id })));
    const ahead = new Map<string, Prefetched>();
    let next = 0;
    const readAhead = (from: number) => {
      for (next = Math.max(next, from); next < sorted.length; next++) {
        const a = listed.get(sorted[next]);
        if (!a?.evidence || ahead.has(a.attestation_id) || written.has(a.evidence.sha256)) continue;
        ahead.set(a.attestation_id, open(a.attestation_id));
        next++;
        return;
      }
    };
    /** Each blob written, and what was wrong with it (null: nothing). */
    const written = new Map<string, string | null>();
    for (const [position, id] of sorted.entries()) {
      const found: { data: AttestationShape[] } = listed.has(id)
        ? { data: [listed.get(id)!] }
        : await this.queryBus.execute(new FindOrgAttestationQuery({ ...scope, attestationId: id })).catch(notFoundAsEmpty);
      const entry = logged.get(`attestation/${id}`) ?? (await this.lookup(scope, 'attestation', id, size));
      if (entry) leaves.push(entry);
      const record = found.data[0];
      if (!record) {
        if (entry) manifest.missing_records.push({ kind: 'attestation', id, index: entry.index });
        continue;
      }
      const file = `attestations/${id}.json`;
      await add(file, json(record));
      manifest.records.push({ kind: 'attestation', id, file, index: entry?.index ?? null });
      const want = record.evidence?.sha256;
      if (want === undefined) continue;
      if (!written.has(want)) {
        // Once per blob, however many attestations name it; what went wrong with it is said for each of them.
        written.set(want, null);
        const opened = ahead.get(id) ?? open(id);
        ahead.delete(id);
        readAhead(position + 1);
        try {
          written.set(want, await this.writeEvidence(out, `evidence/${want}`, want, opened));
          if (written.get(want) === null) files[`evidence/${want}`] = want;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          written.set(want, error.message);
        }
        // The package says so to the auditor; the operator hears it too (a blob lost or damaged in the store).
        if (written.get(want)) this.logger.error('evidence not packaged', { org: props.orgName, sha256: want, reason: written.get(want) });
      }
      const problem = written.get(want);
      if (problem) manifest.missing_evidence.push({ attestation_id: id, sha256: want, reason: problem });
    }

    // The trail's moments its log entries are over (a trail begun or updated, an artifact reported): each moment
    // as `GET /trails/{org}/{flow}/{trail}/moments/{n}` answers it, once, for every entry made over it.
    const momentEntries = [...logged.values()].filter((e) => (e.kind === 'trail' || e.kind === 'artifact') && e.trail !== undefined && e.moment !== undefined);
    for (const entry of momentEntries.sort((a, b) => a.index - b.index)) {
      const file = `moments/${entry.trail}/${entry.moment}.json`;
      leaves.push(entry);
      if (!files[file]) {
        try {
          const moment = await this.queryBus.execute(
            new GetTrailMomentQuery({ ...scope, flowName: props.flowName, trailName: entry.trail!, expression: String(entry.moment) }),
          );
          await add(file, json(moment));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          manifest.missing_records.push({ kind: entry.kind, id: entry.id, index: entry.index });
          continue;
        }
      }
      manifest.records.push({ kind: entry.kind, id: entry.id, file, index: entry.index });
    }

    for (const ev of await this.evaluations.covering(props.orgId, props.flowName, props.trailName)) {
      await add(`evaluations/${ev.id}.json`, json(ev.record));
      await add(`evaluations/${ev.id}.input.json`, ev.replay);
      const hex = ev.policyDigest.replace(/^sha256:/, '');
      for (const [path, text] of Object.entries(ev.policyFiles)) {
        if (!files[`policies/${hex}/${path}`]) await add(`policies/${hex}/${path}`, text);
      }
      if (ev.envelope === null) continue;
      const file = `evaluations/${ev.id}.dsse.json`;
      await add(file, ev.envelope);
      const entry = await this.lookup(scope, 'evaluation', ev.id, size);
      if (entry) leaves.push(entry);
      manifest.records.push({ kind: 'evaluation', id: ev.id, file, index: entry?.index ?? null });
    }

    const keys = await this.queryBus.execute(new ListLogKeysQuery());
    await add('log/checkpoint', note);
    await add('log/keys.json', json(keys));
    leaves.sort((a, b) => a.index - b.index);
    // The proofs as the log's route answers them, read in batches (the log's stored subtrees: a few statements).
    for (let from = 0; from < leaves.length; from += PROOF_BATCH) {
      const batch = leaves.slice(from, from + PROOF_BATCH);
      const proofs: unknown[] = await this.queryBus.execute(new InclusionProofsQuery({ ...scope, indexes: batch.map((l) => l.index), treeSize: size }));
      for (let i = 0; i < batch.length; i++) {
        const leaf = batch[i];
        await add(`log/leaves/${leaf.index}.json`, json({ index: leaf.index, leaf: leaf.leaf, leaf_hash: leaf.leaf_hash }));
        await add(`log/proofs/${leaf.index}.json`, json(proofs[i]));
      }
    }
    await add('README.txt', PACKAGE_README);
    await out.file('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2) + '\n', 'utf8'));
    await out.finish();
  }

  /**
   * One attachment, streamed slice by slice and hashed as it passes (memory: a few slices, whatever its size).
   * The tar header (name and stored size) goes first, so the bytes are in the archive before their digest is
   * known; a blob that turns out not to be what its attestation recorded (other bytes, or another length) is
   * therefore never vouched for: the manifest leaves it out of its files and lists it in `missing_evidence` with
   * the reason returned here, so the verifier reports it (an unlisted file, evidence not packaged). A blob that
   * cannot be opened at all (missing from the store, the store unreachable) is an AppError thrown before anything
   * is written. A read that fails once the header is out (a bucket connection that drops midway) with an AppError
   * is a reason too: the entry is padded with zeros to its declared size first, so the files after it stay
   * readable; an unexpected error still aborts the package (the stream is destroyed, the client sees a failed
   * download, never a tar whose later files sit inside a half-written entry).
   */
  private async writeEvidence(out: TarGzipWriter, name: string, want: string, opened: Prefetched): Promise<string | null> {
    const evidence = await opened.evidence;
    const hash = createHash('sha256');
    let sent = 0;
    let actual = 0;
    let compression: Compression | undefined;
    let failed: string | null = null;
    await out.begin(name, evidence.size);
    for (;;) {
      let chunk: Buffer | null;
      try {
        chunk = await opened.next();
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        failed = error.message;
        break;
      }
      if (!chunk) break;
      actual += chunk.length;
      // Never past the size the header declared (the tar would be broken); any excess is a mismatch anyway.
      const part = chunk.subarray(0, Math.max(0, evidence.size - sent));
      if (!part.length) continue;
      compression ??= TarGzipWriter.compressionFor(part);
      hash.update(part);
      sent += part.length;
      await out.data(part, compression);
    }
    // Fewer bytes than the header declared: zeros keep the archive well formed (and the file unlisted).
    for (let missing = evidence.size - sent; missing > 0; missing -= Math.min(missing, 65536)) await out.data(Buffer.alloc(Math.min(missing, 65536)));
    await out.end(evidence.size);
    if (failed !== null) return `the store failed while the bytes were read (${sent} of ${evidence.size} bytes): ${failed}`;
    if (evidence.sha256 !== want) return `the attestation now names evidence ${evidence.sha256}`;
    if (actual !== evidence.size || hash.digest('hex') !== want) return `the stored bytes do not match their SHA-256 (${actual} bytes, ${evidence.size} recorded)`;
    return null;
  }

  /** A record's entry if it is integrated and covered by the checkpoint (else the package says it is not logged). */
  private async lookup(scope: { orgId: string; orgName: string }, kind: string, id: string, size: number) {
    try {
      const e: { index: number | null; leaf: string; leaf_hash: string } = await this.queryBus.execute(new LookupEntryQuery({ ...scope, kind, id }));
      return e.index !== null && e.index < size ? { index: e.index, leaf: e.leaf, leaf_hash: e.leaf_hash, kind, id } : null;
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
  }
}


/** `GET /trails/{org}/{flow}/{trail}/audit_package`. */
@QueryHandler(GetTrailAuditPackageQuery)
export class GetTrailAuditPackageHandler implements IQueryHandler<GetTrailAuditPackageQuery> {
  constructor(private readonly writer: AuditPackageWriter) {}

  async execute({ props }: GetTrailAuditPackageQuery): Promise<{ filename: string; stream: Readable }> {
    const scope = { orgId: props.orgId, orgName: props.orgName };
    // Before the response begins: an unknown flow or trail is a 404, not a broken archive.
    const trail = await this.writer.queryBus.execute(new GetTrailQuery({ ...scope, flowName: props.flowName, trailName: props.trailName }));
    const stream = this.writer.start(scope, {
      subject: { kind: 'trail', flow: props.flowName, trail: props.trailName },
      flowName: props.flowName,
      trailName: props.trailName,
      recordFile: 'trail.json',
      record: trail,
      includes: (a) => a.trail_name === props.trailName,
      logged: (leaf) => leaf.flow === props.flowName && leaf.trail === props.trailName,
    });
    return { filename: `${props.orgName}-${props.flowName}-${props.trailName}-audit-package.tar.gz`, stream };
  }
}

@QueryHandler(GetArtifactAuditPackageQuery)
export class GetArtifactAuditPackageHandler implements IQueryHandler<GetArtifactAuditPackageQuery> {
  constructor(private readonly writer: AuditPackageWriter) {}

  async execute({ props }: GetArtifactAuditPackageQuery): Promise<{ filename: string; stream: Readable }> {
    const scope = { orgId: props.orgId, orgName: props.orgName };
    const fingerprint = props.fingerprint;
    // The artifact as `GET /artifacts/{org}/{flow}/fingerprint/{fingerprint}` answers it (404 when unknown).
    const artifact = (await this.writer.queryBus.execute(new GetArtifactsQuery({ ...scope, flowName: props.flowName, by: { fingerprint } }))) as { id: string; trail_name: string };
    const stream = this.writer.start(scope, {
      subject: { kind: 'artifact', flow: props.flowName, fingerprint },
      flowName: props.flowName,
      trailName: artifact.trail_name,
      recordFile: 'artifact.json',
      record: artifact,
      includes: (a) => a.trail_name === artifact.trail_name && a.artifact_fingerprint === fingerprint,
      // Its attestations (by fingerprint) and its report (kind `artifact`, over the trail's moment it made).
      logged: (leaf) => leaf.flow === props.flowName && (leaf.fingerprint === fingerprint || (leaf.kind === 'artifact' && leaf.id === artifact.id)),
    });
    return { filename: `${props.orgName}-${props.flowName}-${fingerprint.slice(0, 12)}-audit-package.tar.gz`, stream };
  }
}

function notFoundAsEmpty(error: unknown): { data: [] } {
  if (error instanceof AppError) return { data: [] };
  throw error;
}

/**
 * An attachment opened ahead of its turn: the open, then one slice ahead of the one being written. A failure is
 * kept for when its turn comes (never an unhandled rejection meanwhile).
 */
class Prefetched {
  private iterator: Promise<AsyncIterator<Buffer>>;
  private pending: Promise<IteratorResult<Buffer>>;

  constructor(readonly evidence: Promise<OpenedEvidence>) {
    this.iterator = evidence.then((e) => e.chunks()[Symbol.asyncIterator]());
    this.pending = this.iterator.then((it) => it.next());
    this.pending.catch(() => undefined);
  }

  /** The next slice (and the one after it requested), or null at the end. */
  async next(): Promise<Buffer | null> {
    const got = await this.pending;
    if (got.done) return null;
    this.pending = this.iterator.then((it) => it.next());
    this.pending.catch(() => undefined);
    return got.value;
  }
}
