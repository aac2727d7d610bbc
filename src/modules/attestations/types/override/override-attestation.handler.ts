import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { ArtifactDirectory } from '../../../artifacts/artifacts.module';
import { AttestationReader } from '../../persistence/attestation.reader';
import { AttestationBatcher } from '../../recording/attestation-batcher';
import { OverrideAttestationCommand } from './override-attestation.command';
import { overrideAttestationType } from './override-attestation.type';

/**
 * Finds the attestation the override is about (the newest attestation of the slot that is not itself an
 * override: 404 when the trail or the slot has none), checks it is of the type the caller names, and records
 * the override in the same slot.
 */
@CommandHandler(OverrideAttestationCommand)
export class OverrideAttestationHandler implements ICommandHandler<OverrideAttestationCommand> {
  constructor(
    private readonly reader: AttestationReader,
    private readonly artifacts: ArtifactDirectory,
    private readonly dataSource: DataSource,
    private readonly batcher: AttestationBatcher,
  ) {}

  async execute(command: OverrideAttestationCommand): Promise<string> {
    const { orgId, flowName, trailName, actor, data } = command.props;
    const trailId = await this.reader.trailId(orgId, flowName, trailName);
    const targets = data.target_artifacts ?? [];
    if (targets.length > 1 || (targets.length && data.artifact_fingerprint)) {
      throw new ValidationError({ target_artifacts: 'an override is about one slot: give one artifact, by fingerprint or by template name' });
    }
    let artifactName: string | null = targets[0] ?? null;
    if (data.artifact_fingerprint) {
      const names = await this.artifacts.templateNamesOf(this.dataSource.manager, [{ trailId, fingerprint: data.artifact_fingerprint }]);
      artifactName = names.get(`${trailId}/${data.artifact_fingerprint}`) ?? null;
      if (artifactName === null) {
        throw new NotFoundError(`Artifact with fingerprint '${data.artifact_fingerprint}' not found in trail '${trailName}' of flow '${flowName}'`);
      }
    }
    const slot = artifactName ? `${artifactName}.${data.attestation_name}` : data.attestation_name;
    const versions = await this.reader.slotVersions(trailId, artifactName, data.attestation_name);
    const overridden = versions.find((row) => row.attestation_type !== overrideAttestationType.name);
    if (!overridden) throw new NotFoundError(`Attestation '${slot}' not found in trail '${trailName}' of flow '${flowName}'`);
    if (overridden.attestation_type !== data.original_attestation_type) {
      throw new ValidationError({
        original_attestation_type: `attestation '${slot}' is of type '${overridden.attestation_type}', not '${data.original_attestation_type}'`,
      });
    }
    const recorded = await this.batcher.record({
      orgId,
      flowName,
      trailName,
      actor,
      type: overrideAttestationType,
      data: { ...data, overridden_attestation_id: overridden.id },
    });
    return `attestation '${slot}' was overridden in trail '${trailName}' (attestation ${recorded.attestationIds[0]}, overriding ${overridden.id})`;
  }
}
