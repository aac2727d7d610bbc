import { Readable } from 'node:stream';
import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import PDFDocument from 'pdfkit';
import { parseCheckpoint, parseNote } from '../../../../libs/transparency/src';
import { AppError } from '../../../common/errors/app-error';
import { ListFlowAttestationsQuery } from '../../attestations/attestations.module';
import { EvaluationArchive } from '../../evaluations/evaluations.module';
import { GetCheckpointQuery, LookupEntryQuery } from '../../evidence-log/evidence-log.module';
import { GetTrailQuery } from '../../trails/trails.module';
import { GetTrailAuditPdfQuery } from './get-trail-audit-pdf.query';

/** The attestation read shape's common fields: the rest are the type's own (its typed summary). */
const COMMON_FIELDS = new Set([
  'attestation_id', 'attestation_name', 'attestation_type', 'created_at', 'description', 'has_audit_package', 'html_url',
  'is_compliant', 'origin_url', 'reported_by', 'schema_version', 'user_data', 'flow_name', 'trail_name', 'artifact_name',
  'artifact_fingerprint', 'attestation_number', 'moment_number', 'external_urls', 'annotations', 'git_commit_info',
  'repo_info', 'evidence',
]);

type Attestation = Record<string, unknown> & {
  attestation_id: string;
  attestation_name: string;
  attestation_type: string;
  trail_name: string;
  is_compliant: boolean;
  created_at: number;
  artifact_fingerprint: string | null;
  evidence: { sha256: string; filename: string; size: number } | null;
};

interface SlotStatus {
  attestation_name: string;
  attestation_type: string | null;
  status: string;
  is_compliant: boolean | null;
  unexpected: boolean;
}

const when = (seconds: number) => new Date(seconds * 1000).toISOString();
const verdict = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'compliant' : 'NOT compliant');

/**
 * The audit PDF: the trail, its compliance and why (each slot's status), each attestation with its typed summary
 * and evidence digest, the decisions that covered it with their policies' digests, and the log checkpoint with
 * each record's leaf hash and index, so a reader can check any of it with the verifier. Streamed as pdfkit writes it.
 */
@QueryHandler(GetTrailAuditPdfQuery)
export class GetTrailAuditPdfHandler implements IQueryHandler<GetTrailAuditPdfQuery> {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly evaluations: EvaluationArchive,
  ) {}

  async execute({ props }: GetTrailAuditPdfQuery): Promise<{ filename: string; stream: Readable }> {
    const scope = { orgId: props.orgId, orgName: props.orgName };
    const trail = await this.queryBus.execute(new GetTrailQuery({ ...scope, flowName: props.flowName, trailName: props.trailName }));
    const attestations: Attestation[] = [];
    for (let page = 1; ; page++) {
      const got: { data: Attestation[]; pagination: { page_count: number } } = await this.queryBus.execute(
        new ListFlowAttestationsQuery({ ...scope, flowName: props.flowName, page, perPage: 500 }),
      );
      attestations.push(...got.data.filter((a) => a.trail_name === props.trailName));
      if (page >= got.pagination.page_count) break;
    }
    attestations.sort((a, b) => a.created_at - b.created_at || a.attestation_id.localeCompare(b.attestation_id));
    const evaluations = await this.evaluations.covering(props.orgId, props.flowName, props.trailName);
    const note: string = await this.queryBus.execute(new GetCheckpointQuery(scope));
    const checkpoint = parseCheckpoint(parseNote(note).text);
    const leafOf = async (kind: string, id: string) => {
      try {
        const e: { index: number | null; leaf_hash: string } = await this.queryBus.execute(new LookupEntryQuery({ ...scope, kind, id }));
        return e.index !== null && e.index < checkpoint.size ? `leaf ${e.index}, hash ${Buffer.from(e.leaf_hash, 'base64').toString('hex')}` : 'not yet covered by the checkpoint';
      } catch (error) {
        if (error instanceof AppError) return 'not logged';
        throw error;
      }
    };
    const leaves = new Map<string, string>();
    for (const a of attestations) leaves.set(a.attestation_id, await leafOf('attestation', a.attestation_id));
    for (const e of evaluations) leaves.set(e.id, await leafOf('evaluation', e.id));

    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Audit report ${props.orgName}/${props.flowName}/${props.trailName}`, Producer: 'Veritrail' } });
    const h1 = (text: string) => doc.moveDown(0.5).font('Helvetica-Bold').fontSize(16).text(text).moveDown(0.3);
    const h2 = (text: string) => doc.moveDown(0.4).font('Helvetica-Bold').fontSize(12).text(text).moveDown(0.2);
    const line = (text: string) => doc.font('Helvetica').fontSize(9.5).text(text);
    const mono = (text: string) => doc.font('Courier').fontSize(8).text(text);

    doc.font('Helvetica-Bold').fontSize(20).text('Veritrail audit report');
    line(`Organization ${props.orgName}, flow ${props.flowName}, trail ${props.trailName}`);
    line(`Generated ${new Date().toISOString()}`);

    const status = trail.compliance_status as { status: string; is_compliant: boolean; attestations_statuses: SlotStatus[]; artifacts_statuses: Record<string, { status: string; is_compliant: boolean; attestations_statuses: SlotStatus[] }> };
    h1(`Compliance: ${trail.is_compliant ? 'COMPLIANT' : 'NOT COMPLIANT'} (${String(trail.compliance_state)})`);
    line(`Trail created ${when(trail.created_at)} by ${trail.created_by}; last moment ${trail.last_moment}; template ${trail.template_id ?? 'none'}.`);
    if (trail.description) line(`Description: ${trail.description}`);
    h2('Why: each required and reported attestation');
    const slot = (prefix: string, s: SlotStatus) =>
      line(`${prefix}${s.attestation_name} (${s.attestation_type ?? 'any type'}): ${s.status}, ${verdict(s.is_compliant)}${s.unexpected ? ', not in the template' : ''}`);
    for (const s of status.attestations_statuses ?? []) slot('- ', s);
    for (const [name, artifact] of Object.entries(status.artifacts_statuses ?? {})) {
      line(`Artifact ${name}: ${artifact.status}, ${verdict(artifact.is_compliant)}`);
      for (const s of artifact.attestations_statuses ?? []) slot('   - ', s);
    }

    h1(`Attestations (${attestations.length})`);
    for (const a of attestations) {
      h2(`${a.attestation_name} - ${a.attestation_type}, ${verdict(a.is_compliant)}`);
      line(`Id ${a.attestation_id}, recorded ${when(a.created_at)} by ${String(a.reported_by)}${a.artifact_fingerprint ? `, artifact ${a.artifact_fingerprint}` : ''}`);
      const typed = Object.fromEntries(Object.entries(a).filter(([k]) => !COMMON_FIELDS.has(k)));
      if (Object.keys(typed).length) {
        const summary = JSON.stringify(typed);
        line(`Summary: ${summary.length > 600 ? `${summary.slice(0, 600)}...` : summary}`);
      }
      if (a.evidence) line(`Evidence ${a.evidence.filename} (${a.evidence.size} bytes), SHA-256 ${a.evidence.sha256}`);
      line(`Log: ${leaves.get(a.attestation_id)}`);
    }

    h1(`Decisions (${evaluations.length})`);
    if (evaluations.length === 0) line('No evaluation covered this trail.');
    for (const e of evaluations) {
      const r = e.record;
      h2(`Evaluation ${e.id}`);
      const result = r.result as { allow?: unknown; violations?: unknown } | null;
      line(`Recorded ${r.verification.recorded_at} (Unix seconds); outcome ${result?.allow === true ? 'PASSED (allowed)' : 'FAILED (not allowed)'}${r.control ? `; control ${r.control}` : ''}`);
      if (Array.isArray(result?.violations) && result!.violations.length) line(`Violations: ${(result!.violations as string[]).join('; ')}`);
      line(`Policy bundle digest ${e.policyDigest}; files: ${Object.keys(e.policyFiles).sort().join(', ')}`);
      line(`Input digest ${r.verification.input_digest}; result digest ${r.verification.result_digest}; engine ${r.verification.engine} ${r.verification.engine_version}`);
      line(`Signed statement: ${e.envelope ? `GET /api/v2/evaluations/${props.orgName}/${e.id}/attestation` : 'none (completed before decisions were signed)'}`);
      line(`Log: ${leaves.get(e.id)}`);
    }

    h1('Evidence log checkpoint');
    line(`The records above are leaves of ${props.orgName}'s evidence log. This signed checkpoint (C2SP signed note) covers ${checkpoint.size} entries;`);
    line('check any record with: npm run verify -- package <the trail\'s audit package> --key <the log\'s verifier key>.');
    doc.moveDown(0.3);
    mono(note);
    doc.end();
    return { filename: `${props.orgName}-${props.flowName}-${props.trailName}-audit.pdf`, stream: doc as unknown as Readable };
  }
}
