import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ArtifactRepository } from './persistence/artifact.repository';

/** The artifacts module's public surface: which reported artifact a fingerprint names in a trail. */
@Injectable()
export class ArtifactDirectory {
  constructor(private readonly artifacts: ArtifactRepository) {}

  /**
   * For each (trail, fingerprint), the template reference name the fingerprint was last reported as in that
   * trail; a pair that was never reported has no entry. Keyed `${trailId}/${fingerprint}`.
   */
  async templateNamesOf(manager: EntityManager, wanted: Array<{ trailId: string; fingerprint: string }>): Promise<Map<string, string>> {
    const found = await this.artifacts.findLatestInTrails(manager, wanted);
    return new Map(found.map((f) => [`${f.trailId}/${f.fingerprint}`, f.templateReferenceName]));
  }
}
