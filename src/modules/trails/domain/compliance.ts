import type { FlowTemplateSpec } from '../../flows/flows.module';

export type SlotStatus = 'MISSING' | 'COMPLETE';
export type TrailStatus = 'COMPLIANT' | 'NON-COMPLIANT' | 'INCOMPLETE';
export type ArtifactStatus = TrailStatus | 'MISSING';

/** The latest attestation of one slot (trail-level when artifactName is null). */
export interface SlotAttestation {
  id: string;
  name: string;
  artifactName: string | null;
  type: string;
  isCompliant: boolean;
  /** The stored attestation as the org-wide attestation read shows it. */
  fields: Record<string, unknown>;
}

/** The latest report of one artifact (by template reference name). */
export interface ReportedArtifact {
  id: string;
  name: string;
  fingerprint: string;
}

/** One compliance slot: expected by the template, or filled without being expected (unexpected). */
export interface Slot {
  key: string;
  artifactName: string | null;
  name: string;
  expectedType: string | null;
  attestation: SlotAttestation | null;
  unexpected: boolean;
}

export interface ArtifactSlots {
  name: string;
  artifact: ReportedArtifact | null;
  expected: boolean;
  slots: Slot[];
}

export interface TrailCompliance {
  status: TrailStatus;
  trailSlots: Slot[];
  artifacts: ArtifactSlots[];
  /** Keys shared by more than one slot (a template listing a name twice in one scope). */
  duplicateKeys: string[];
}

/** `name` for trail-level slots, `<artifact>.<name>` for artifact-level slots. */
export function slotKey(artifactName: string | null, name: string): string {
  return artifactName === null ? name : `${artifactName}.${name}`;
}

const compositeId = (artifactName: string | null, name: string) => `${artifactName ?? ''}\u0000${name}`;

/**
 * Lays the latest attestations and artifact reports over the template's expected slots.
 * Status rule: NON-COMPLIANT if any filled slot is non-compliant, else INCOMPLETE if an expected slot (or an
 * expected artifact) is missing, else COMPLIANT. A trail without a template expects nothing.
 */
export function evaluateCompliance(
  template: FlowTemplateSpec | null,
  attestations: SlotAttestation[],
  artifacts: ReportedArtifact[],
): TrailCompliance {
  const latest = new Map<string, SlotAttestation>();
  for (const a of attestations) latest.set(compositeId(a.artifactName, a.name), a);
  const used = new Set<string>();
  const take = (artifactName: string | null, name: string) => {
    const id = compositeId(artifactName, name);
    used.add(id);
    return latest.get(id) ?? null;
  };

  const trailSlots: Slot[] = (template?.trail.attestations ?? []).map((t) => ({
    key: slotKey(null, t.name),
    artifactName: null,
    name: t.name,
    expectedType: t.type,
    attestation: take(null, t.name),
    unexpected: false,
  }));

  const reported = new Map(artifacts.map((a) => [a.name, a]));
  const artifactGroups = new Map<string, ArtifactSlots>();
  for (const t of template?.trail.artifacts ?? []) {
    let group = artifactGroups.get(t.name);
    if (!group) {
      group = { name: t.name, artifact: reported.get(t.name) ?? null, expected: true, slots: [] };
      artifactGroups.set(t.name, group);
    }
    for (const a of t.attestations) {
      group.slots.push({
        key: slotKey(t.name, a.name),
        artifactName: t.name,
        name: a.name,
        expectedType: a.type,
        attestation: take(t.name, a.name),
        unexpected: false,
      });
    }
  }
  const groupFor = (name: string) => {
    let group = artifactGroups.get(name);
    if (!group) {
      group = { name, artifact: reported.get(name) ?? null, expected: false, slots: [] };
      artifactGroups.set(name, group);
    }
    return group;
  };
  for (const a of artifacts) groupFor(a.name);
  for (const a of attestations) {
    const id = compositeId(a.artifactName, a.name);
    if (used.has(id)) continue;
    used.add(id);
    const slot: Slot = {
      key: slotKey(a.artifactName, a.name),
      artifactName: a.artifactName,
      name: a.name,
      expectedType: null,
      attestation: a,
      unexpected: true,
    };
    if (a.artifactName === null) trailSlots.push(slot);
    else groupFor(a.artifactName).slots.push(slot);
  }

  const all = [...trailSlots, ...[...artifactGroups.values()].flatMap((g) => g.slots)];
  const counts = new Map<string, number>();
  for (const s of all) counts.set(s.key, (counts.get(s.key) ?? 0) + 1);
  const duplicateKeys = [...counts].filter(([, n]) => n > 1).map(([k]) => k);

  const groups = [...artifactGroups.values()];
  const status = statusOf(all, groups.some((g) => g.expected && !g.artifact));
  return { status, trailSlots, artifacts: groups, duplicateKeys };
}

export function statusOf(slots: Slot[], expectedArtifactMissing = false): TrailStatus {
  if (slots.some((s) => s.attestation && !s.attestation.isCompliant)) return 'NON-COMPLIANT';
  if (expectedArtifactMissing || slots.some((s) => !s.unexpected && !s.attestation)) return 'INCOMPLETE';
  return 'COMPLIANT';
}

export function artifactStatusOf(group: ArtifactSlots): ArtifactStatus {
  if (!group.artifact) return 'MISSING';
  return statusOf(group.slots);
}
