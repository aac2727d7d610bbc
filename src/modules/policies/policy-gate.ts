import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { EntityManager } from 'typeorm';
import { NotFoundError } from '../../common/errors/app-error';
import { ArtifactDirectory, ArtifactProvenance } from '../artifacts/artifacts.module';
import { TrailStateReader } from '../trails/trails.module';
import { AllowListing, ArtifactDecision, ArtifactEvidence, decide, EvidenceAttestation, EvidenceTrail, PolicyToApply, SlotStatus, TrailStatus } from './domain/rule-evaluation';
import { AllowlistRepository, AllowlistRow } from './persistence/allowlist.repository';
import { AttachmentRepository } from './persistence/attachment.repository';
import { parsePolicy } from './domain/policy-spec';
import { FlowTagsReader } from './persistence/flow-tags.reader';
import { PolicyRepository } from './persistence/policy.repository';

/** What a trail holds, as the rules read it: its status, its own attestations and each artifact's. */
interface TrailEvidence {
  status: TrailStatus;
  trailLevel: EvidenceAttestation[];
  byFingerprint: Map<string, EvidenceAttestation[]>;
  trailSlots: SlotStatus[];
  slotsByFingerprint: Map<string, SlotStatus[]>;
}

type Slot = { name: string; expectedType: string | null; unexpected: boolean; attestation: { type: string; isCompliant: boolean } | null };
const slotStatus = (s: Slot): SlotStatus => ({
  attestation_name: s.name,
  attestation_type: s.attestation?.type ?? s.expectedType,
  status: s.attestation ? 'COMPLETE' : 'MISSING',
  is_compliant: s.attestation ? s.attestation.isCompliant : null,
  unexpected: s.unexpected,
});

/** The policies an environment applies and its allow-list: what a snapshot of it is judged by. */
export interface EnvironmentRules {
  policies: PolicyToApply[];
  allowlist: Map<string, AllowListing>;
}

export interface ArtifactToJudge {
  name: string;
  fingerprint: string;
}

const toEvidence = (slot: { attestation: { name: string; type: string; isCompliant: boolean; fields: Record<string, unknown> } | null }): EvidenceAttestation[] =>
  slot.attestation
    ? [
        {
          name: slot.attestation.name,
          type: slot.attestation.type,
          compliant: slot.attestation.isCompliant,
          control: typeof slot.attestation.fields.control === 'string' ? slot.attestation.fields.control : null,
        },
      ]
    : [];

/**
 * The policies module's facade: attaching policies to environments (by environment id: the environments
 * module resolves names), allow-lists, and judging artifacts against policies. A trail's evidence at a given
 * moment never changes, so it is kept per process by (trail, last moment), like snapshot compliance.
 */
@Injectable()
export class PolicyGate {
  private readonly evidence = new LRUCache<string, TrailEvidence>({ max: 50_000 });
  /**
   * Decisions by everything they depend on (the policy versions, the allow-list entry, the artifact, its trails at
   * their moments and their flows' tags): a report that changed one image judges that one again, and every other
   * artifact gets the very same decision object (whose digest the caller may then keep).
   */
  private readonly decisions = new LRUCache<string, ArtifactDecision>({ max: 100_000 });

  constructor(
    private readonly policies: PolicyRepository,
    private readonly attachments: AttachmentRepository,
    private readonly allowlists: AllowlistRepository,
    private readonly flowTags: FlowTagsReader,
    private readonly artifacts: ArtifactDirectory,
    private readonly trails: TrailStateReader,
  ) {}

  /** The latest version of each named policy; 404 naming the first that does not exist. */
  async byNames(orgId: string, names: readonly string[], manager?: EntityManager): Promise<PolicyToApply[]> {
    const found = await this.policies.latestByNames(orgId, [...new Set(names)], manager);
    const missing = names.find((n) => !found.some((p) => p.name === n));
    if (missing !== undefined) throw new NotFoundError(`Policy '${missing}' not found`);
    return found;
  }

  async attach(manager: EntityManager, orgId: string, environmentId: string, names: readonly string[], actor: string): Promise<void> {
    const found = await this.policies.latestByNames(orgId, [...new Set(names)], manager);
    const missing = names.find((n) => !found.some((p) => p.name === n));
    if (missing !== undefined) throw new NotFoundError(`Policy '${missing}' not found`);
    await this.attachments.attach(manager, orgId, environmentId, found.map((p) => p.id), actor);
  }

  /** Detaching a policy that is not attached is a no-op; one that does not exist is 404. */
  async detach(manager: EntityManager, orgId: string, environmentId: string, names: readonly string[]): Promise<void> {
    const found = await this.policies.latestByNames(orgId, [...new Set(names)], manager);
    const missing = names.find((n) => !found.some((p) => p.name === n));
    if (missing !== undefined) throw new NotFoundError(`Policy '${missing}' not found`);
    await this.attachments.detach(manager, orgId, environmentId, found.map((p) => p.id));
  }

  /** The rules of an environment; null when it has no policy attached (it keeps the rule of old). */
  async rulesOf(orgId: string, environmentId: string, manager?: EntityManager): Promise<EnvironmentRules | null> {
    const applied = await this.attachments.applied(orgId, environmentId, manager);
    if (!applied.length) return null;
    return { policies: applied.map((p) => ({ name: p.name, version: p.version, spec: p.spec })), allowlist: await this.allowlists.forEnvironment(orgId, environmentId, manager) };
  }

  /**
   * `rulesOf` for many environments in two queries (an artifact's gate answer across environments): by
   * environment id, the rules of those with a policy attached (the others are absent), each allow-list holding
   * only the entries of the given fingerprints.
   */
  async rulesOfEach(orgId: string, environmentIds: readonly string[], fingerprints: readonly string[]): Promise<Map<string, EnvironmentRules>> {
    const [applied, allowlists] = await Promise.all([this.attachments.appliedFor(orgId, environmentIds), this.allowlists.forFingerprints(orgId, environmentIds, fingerprints)]);
    const rules = new Map<string, EnvironmentRules>();
    for (const [environmentId, policies] of applied) {
      rules.set(environmentId, { policies: policies.map((p) => ({ name: p.name, version: p.version, spec: p.spec })), allowlist: allowlists.get(environmentId) ?? new Map() });
    }
    return rules;
  }

  attachedNames(orgId: string, environmentIds: readonly string[]): Promise<Map<string, string[]>> {
    return this.attachments.namesFor(orgId, environmentIds);
  }

  /** Environments (by id) whose attached policies' latest versions require a decision for the control, with those policies. */
  controlCoverage(orgId: string, identifier: string): Promise<Map<string, string[]>> {
    return this.attachments.coveringControl(orgId, identifier);
  }

  allowlistOf(orgId: string, environmentId: string): Promise<Map<string, AllowListing>> {
    return this.allowlists.forEnvironment(orgId, environmentId);
  }

  putAllowlist(
    manager: EntityManager,
    orgId: string,
    environmentId: string,
    entry: { fingerprint: string; artifactName: string; description: string; actor: string },
  ): Promise<void> {
    return this.allowlists.put(manager, orgId, environmentId, entry);
  }

  listAllowlists(orgId: string): Promise<AllowlistRow[]> {
    return this.allowlists.list(orgId);
  }

  /** Judges each artifact against the policies, with its allow-listing (by fingerprint) when there is one. */
  async judge(
    orgId: string,
    policies: readonly PolicyToApply[],
    artifacts: readonly ArtifactToJudge[],
    allowlist: ReadonlyMap<string, AllowListing> = new Map(),
    onlyFlow?: string,
  ): Promise<ArtifactDecision[]> {
    const evidence = await this.evidenceOf(orgId, artifacts, onlyFlow, true);
    // A saved policy's name and version name its rules; the default rule varies with the environment's provenance
    // requirement, so its key is its spec.
    const versions = policies.map((p) => (p.version === 0 ? JSON.stringify(p.spec) : `${p.name}@${p.version}`)).join('\u0001');
    return evidence.map((e) => {
      const listing = allowlist.get(e.fingerprint) ?? null;
      const key = [orgId, versions, listing ? `${listing.timestamp}:${listing.user_name}:${listing.description}` : '', e.name, e.fingerprint, (e as KeyedEvidence).key].join('\u0000');
      let decision = this.decisions.get(key);
      if (!decision) {
        decision = decide(policies, e, listing);
        this.decisions.set(key, decision);
      }
      return decision;
    });
  }

  /** Judges evidence already read (an assertion shows both). */
  decide(policies: readonly PolicyToApply[], evidence: readonly ArtifactEvidence[], allowlist: ReadonlyMap<string, AllowListing> = new Map()): ArtifactDecision[] {
    return evidence.map((e) => decide(policies, e, allowlist.get(e.fingerprint) ?? null));
  }

  /**
   * The rule of environments without policies, as a policy: every trail that reported the artifact compliant
   * (an artifact no trail reported passes), and provenance when the environment requires it.
   */
  defaultRule(requireProvenance: boolean): PolicyToApply {
    return {
      name: '(environment without policies)',
      version: 0,
      spec: parsePolicy(
        '_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n' +
          (requireProvenance ? '  provenance:\n    required: true\n' : '') +
          '  trail-compliance:\n    required: true\n    exceptions:\n      - if: ${{ not exists(flow) }}\n',
      ),
    };
  }

  /** What is known of each artifact: the trails that reported it, their flows' tags, status and attestations. */
  async evidenceOf(orgId: string, artifacts: readonly ArtifactToJudge[], onlyFlow?: string, keyed = false): Promise<ArtifactEvidence[]> {
    const fingerprints = [...new Set(artifacts.map((a) => a.fingerprint).filter((f) => f !== ''))];
    let provenance = fingerprints.length ? await this.artifacts.provenanceOf(orgId, fingerprints) : [];
    if (onlyFlow !== undefined) provenance = provenance.filter((p) => p.flowName === onlyFlow);
    const [tags, trails] = await Promise.all([this.flowTags.tagsOf(orgId, [...new Set(provenance.map((p) => p.flowName))]), this.trailEvidence(provenance)]);
    const byFingerprint = new Map<string, EvidenceTrail[]>();
    for (const p of provenance) {
      const t = trails.get(key(p))!;
      const entry: EvidenceTrail = {
        flow: p.flowName,
        trail: p.trailName,
        flowTags: tags.get(p.flowName) ?? {},
        status: t.status,
        attestations: [...t.trailLevel, ...(t.byFingerprint.get(p.fingerprint) ?? [])],
        artifactName: p.filename,
        slots: [...(t.slotsByFingerprint.get(p.fingerprint) ?? []), ...t.trailSlots],
      };
      const list = byFingerprint.get(p.fingerprint);
      if (list) list.push(entry);
      else byFingerprint.set(p.fingerprint, [entry]);
    }
    const keys = new Map<string, string[]>();
    if (keyed) {
      for (const p of provenance) {
        const list = keys.get(p.fingerprint) ?? [];
        // The flow's name too: rules read it (`flow.name`), and a rename makes no new moment.
        list.push(`${key(p)}:${JSON.stringify(p.flowName)}:${JSON.stringify(tags.get(p.flowName) ?? {})}`);
        keys.set(p.fingerprint, list);
      }
    }
    return artifacts.map((a) => ({
      name: a.name,
      fingerprint: a.fingerprint,
      trails: (byFingerprint.get(a.fingerprint) ?? []).sort((x, y) => (x.flow < y.flow ? -1 : x.flow > y.flow ? 1 : x.trail < y.trail ? -1 : x.trail > y.trail ? 1 : 0)),
      ...(keyed ? { key: (keys.get(a.fingerprint) ?? []).sort().join('|') } : {}),
    }));
  }

  private async trailEvidence(provenance: readonly ArtifactProvenance[]): Promise<Map<string, TrailEvidence>> {
    const out = new Map<string, TrailEvidence>();
    const missing = new Map<string, ArtifactProvenance>();
    for (const p of provenance) {
      const known = this.evidence.get(key(p));
      if (known) out.set(key(p), known);
      else missing.set(p.trailId, p);
    }
    if (missing.size) {
      const states = await this.trails.currentStates([...missing.values()].map((p) => ({ id: p.trailId, template_id: p.templateId, last_moment: p.lastMoment })));
      for (const p of missing.values()) {
        const c = states.get(p.trailId)!.compliance;
        const byFingerprint = new Map<string, EvidenceAttestation[]>();
        const slotsByFingerprint = new Map<string, SlotStatus[]>();
        for (const a of c.artifacts) {
          if (!a.artifact) continue;
          const list = byFingerprint.get(a.artifact.fingerprint) ?? [];
          const slots = slotsByFingerprint.get(a.artifact.fingerprint) ?? [];
          for (const slot of a.slots) {
            list.push(...toEvidence(slot));
            slots.push(slotStatus(slot));
          }
          byFingerprint.set(a.artifact.fingerprint, list);
          slotsByFingerprint.set(a.artifact.fingerprint, slots);
        }
        const evidence: TrailEvidence = {
          status: c.status,
          trailLevel: c.trailSlots.flatMap(toEvidence),
          byFingerprint,
          trailSlots: c.trailSlots.map(slotStatus),
          slotsByFingerprint,
        };
        this.evidence.set(key(p), evidence);
        out.set(key(p), evidence);
      }
    }
    return out;
  }
}

const key = (p: Pick<ArtifactProvenance, 'trailId' | 'lastMoment'>) => `${p.trailId}:${p.lastMoment}`;

/** Evidence with what it was read from (trails at their moments, their flows' tags), for the decision cache. */
type KeyedEvidence = ArtifactEvidence & { key: string };
