import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../common/config/app-config';
import { InjectConfig } from '../../common/config/config.decorators';
import { TrailState, TrailStateReader } from '../trails/trails.module';
import { ArtifactCompliance, ArtifactEvidence, artifactLinks, ArtifactResponse, ArtifactState, toArtifactResponse } from './dto/artifact.response';
import { ArtifactCatalogReader, CatalogRow, RunRow } from './persistence/artifact-catalog.reader';

/** Per-process budget for trail summaries (their JSON size). */
export const SUMMARY_CACHE_BYTES = 64 * 1024 * 1024;

/** What the catalog shows of a trail as of a moment: its compliance and, by template name, its artifacts' evidence. */
interface TrailSummary {
  state: ArtifactState;
  template: string[] | null;
  evidence: Map<string, Record<string, ArtifactEvidence>>;
}

/**
 * The artifact catalog's public surface: artifact reports read back in the reference's shape, each with its
 * trail's compliance, the attestations of its slot and where it runs. Used by the catalog's own routes and by
 * the search module.
 *
 * A trail's state as of a moment never changes (evidence is append-only), so what the catalog shows of it is
 * kept per process by (trail, last moment); a trail with new evidence has a new last moment and is read again.
 * Only that summary is kept, never the whole trail state (trail-level slots, whole attestation fields), and the
 * cache is bounded by its JSON size, not by a count: an attestation's user_data may be a megabyte.
 */
@Injectable()
export class ArtifactViews {
  private readonly states = new LRUCache<string, TrailSummary>({ maxSize: SUMMARY_CACHE_BYTES });

  constructor(
    private readonly reader: ArtifactCatalogReader,
    private readonly trails: TrailStateReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Reports whose fingerprint or commit starts with `prefix` (lowercase hex), newest first. */
  byShaPrefix(orgId: string, prefix: string): Promise<CatalogRow[]> {
    return this.reader.byShaPrefix(orgId, prefix);
  }

  /** Runs of these fingerprints, per environment. */
  runs(orgId: string, fingerprints: readonly string[]): Promise<RunRow[]> {
    return this.reader.runs(orgId, fingerprints);
  }

  links(orgName: string, flowName: string, fingerprint: string) {
    return artifactLinks(this.config.publicBaseUrl, orgName, flowName, fingerprint);
  }

  /** Each row in the reference's shape, in the order given. */
  async present(orgId: string, orgName: string, rows: readonly CatalogRow[]): Promise<ArtifactResponse[]> {
    if (!rows.length) return [];
    const [compliance, runs] = await Promise.all([this.compliance(rows), this.reader.runs(orgId, [...new Set(rows.map((r) => r.fingerprint))])]);
    const runsOf = new Map<string, RunRow[]>();
    for (const r of runs) runsOf.set(r.fingerprint, [...(runsOf.get(r.fingerprint) ?? []), r]);
    return rows.map((row) =>
      toArtifactResponse(row, compliance.get(row.id)!, runsOf.get(row.fingerprint) ?? [], this.links(orgName, row.flow_name, row.fingerprint)),
    );
  }

  /** By report id: its trail's current status, and the attestations of its template name's slots. */
  async compliance(rows: readonly CatalogRow[]): Promise<Map<string, ArtifactCompliance>> {
    const key = (r: CatalogRow) => `${r.trail_id}:${r.last_moment}`;
    // Summaries are taken into a map of this call's own: the cache may drop one at any time (a concurrent call,
    // or this one's own inserts, evicting it), so it is never read twice.
    const summaries = new Map<string, TrailSummary>();
    const missing = new Map<string, CatalogRow>();
    for (const r of rows) {
      const cached = summaries.get(key(r)) ?? this.states.get(key(r));
      if (cached) summaries.set(key(r), cached);
      else missing.set(r.trail_id, r);
    }
    if (missing.size) {
      const read = await this.trails.currentStates([...missing.values()].map((r) => ({ id: r.trail_id, template_id: r.template_id, last_moment: r.last_moment })));
      for (const r of missing.values()) {
        const summary = summarize(read.get(r.trail_id)!);
        summaries.set(key(r), summary);
        // A summary over the whole budget is not kept at all (lru-cache refuses it).
        this.states.set(key(r), summary, { size: summarySize(summary) });
      }
    }
    const out = new Map<string, ArtifactCompliance>();
    for (const r of rows) {
      const summary = summaries.get(key(r))!;
      out.set(r.id, { state: summary.state, evidence: { ...(summary.evidence.get(r.template_reference_name) ?? {}) }, template: summary.template });
    }
    return out;
  }
}

function summarize(state: TrailState): TrailSummary {
  const evidence = new Map<string, Record<string, ArtifactEvidence>>();
  for (const group of state.compliance.artifacts) {
    if (evidence.has(group.name)) continue; // the first group of a name, as a lookup by name finds
    const slots: Record<string, ArtifactEvidence> = {};
    for (const slot of group.slots) {
      const a = slot.attestation;
      if (!a) continue;
      const f = a.fields;
      const file = (f.evidence ?? null) as { sha256?: string } | null;
      slots[slot.name] = {
        evidence_type: a.type,
        is_compliant: a.isCompliant,
        created_at: Number(f.created_at),
        has_audit_package: Boolean(f.has_audit_package),
        description: typeof f.description === 'string' ? f.description : null,
        user_data: f.user_data ?? null,
        build_url: typeof f.origin_url === 'string' && f.origin_url ? f.origin_url : null,
        evidence_url: typeof f.html_url === 'string' ? f.html_url : null,
        evidence_fingerprint: file?.sha256 ?? null,
        commit_sha: null,
      };
    }
    evidence.set(group.name, slots);
  }
  const template = state.template ? state.template.spec.trail.artifacts.map((t) => t.name) : null;
  return { state: state.compliance.status, template, evidence };
}

/** Roughly the bytes a summary holds: its JSON size (user_data dominates when it is large). */
function summarySize(summary: TrailSummary): number {
  return Math.max(1, JSON.stringify({ t: summary.template, e: [...summary.evidence] }).length);
}
