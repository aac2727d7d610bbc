import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ArtifactProvenance, ArtifactProvenanceReader } from './persistence/artifact-provenance.reader';
import { ArtifactRepository } from './persistence/artifact.repository';

/**
 * The artifacts module's public surface: which reported artifact a fingerprint names in a trail, and which
 * flows and trails reported a fingerprint (its provenance, for environment snapshots).
 */
@Injectable()
export class ArtifactDirectory {
  constructor(
    private readonly artifacts: ArtifactRepository,
    private readonly provenance: ArtifactProvenanceReader,
  ) {}

  /** Every trail that reported one of these fingerprints, with its latest report there (committed data). */
  provenanceOf(orgId: string, fingerprints: readonly string[]): Promise<ArtifactProvenance[]> {
    return this.provenance.provenanceOf(orgId, fingerprints);
  }

  /**
   * For each (trail, fingerprint), the template reference name the fingerprint was last reported as in that
   * trail; a pair that was never reported has no entry. Keyed `${trailId}/${fingerprint}`.
   */
  async templateNamesOf(manager: EntityManager, wanted: Array<{ trailId: string; fingerprint: string }>): Promise<Map<string, string>> {
    const found = await this.artifacts.findLatestInTrails(manager, wanted);
    return new Map(found.map((f) => [`${f.trailId}/${f.fingerprint}`, f.templateReferenceName]));
  }
}
