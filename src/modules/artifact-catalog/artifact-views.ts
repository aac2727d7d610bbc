import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../common/config/app-config';
import { InjectConfig } from '../../common/config/config.decorators';
import { TrailState, TrailStateReader } from '../trails/trails.module';
import { ArtifactCompliance, ArtifactEvidence, artifactLinks, ArtifactResponse, toArtifactResponse } from './dto/artifact.response';
import { ArtifactCatalogReader, CatalogRow, RunRow } from './persistence/artifact-catalog.reader';

/**
 * The artifact catalog's public surface: artifact reports read back in the reference's shape, each with its
 * trail's compliance, the attestations of its slot and where it runs. Used by the catalog's own routes and by
 * the search module.
 *
 * A trail's state as of a moment never changes (evidence is append-only), so states are kept per process by
 * (trail, last moment); a trail with new evidence has a new last moment and is read again.
 */
@Injectable()
export class ArtifactViews {
  private readonly states = new LRUCache<string, TrailState>({ max: 20_000 });

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
    const missing = new Map<string, CatalogRow>();
    for (const r of rows) if (!this.states.has(key(r))) missing.set(r.trail_id, r);
    if (missing.size) {
      const read = await this.trails.currentStates([...missing.values()].map((r) => ({ id: r.trail_id, template_id: r.template_id, last_moment: r.last_moment })));
      for (const r of missing.values()) this.states.set(key(r), read.get(r.trail_id)!);
    }
    const out = new Map<string, ArtifactCompliance>();
    for (const r of rows) {
      const state = this.states.get(key(r))!;
      const group = state.compliance.artifacts.find((g) => g.name === r.template_reference_name);
      const evidence: Record<string, ArtifactEvidence> = {};
      for (const slot of group?.slots ?? []) {
        const a = slot.attestation;
        if (!a) continue;
        const f = a.fields;
        const file = (f.evidence ?? null) as { sha256?: string } | null;
        evidence[slot.name] = {
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
      const template = state.template ? state.template.spec.trail.artifacts.map((t) => t.name) : null;
      out.set(r.id, { state: state.compliance.status, evidence, template });
    }
    return out;
  }
}
