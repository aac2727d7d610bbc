import { Module } from '@nestjs/common';
import { CustomAttestationTypeDirectory, CustomAttestationTypesModule } from '../../../custom-attestation-types/custom-attestation-types.module';
import { AttestationTypeModule } from '../../attestation-type.module';
import { CustomAttestationController } from './custom-attestation.controller';
import { customAttestationType } from './custom-attestation.type';

/** The whole `custom` type: its definition (judged by the org's custom attestation types) and its route. */
@Module({
  imports: [
    AttestationTypeModule.registerFactory('custom', {
      imports: [CustomAttestationTypesModule],
      inject: [CustomAttestationTypeDirectory],
      useFactory: customAttestationType,
    }),
  ],
  controllers: [CustomAttestationController],
})
export class CustomAttestationModule {}
