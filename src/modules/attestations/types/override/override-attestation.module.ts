import { Module } from '@nestjs/common';
import { ArtifactsModule } from '../../../artifacts/artifacts.module';
import { AttestationTypeModule } from '../../attestation-type.module';
import { AttestationReader } from '../../persistence/attestation.reader';
import { OverrideAttestationController } from './override-attestation.controller';
import { OverrideAttestationHandler } from './override-attestation.handler';
import { overrideAttestationType } from './override-attestation.type';

/** The whole `override` type: its definition and the route overrides arrive by. */
@Module({
  imports: [AttestationTypeModule.register(overrideAttestationType), ArtifactsModule],
  controllers: [OverrideAttestationController],
  providers: [OverrideAttestationHandler, AttestationReader],
})
export class OverrideAttestationModule {}
