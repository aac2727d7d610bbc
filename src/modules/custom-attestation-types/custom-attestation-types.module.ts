import { Module } from '@nestjs/common';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { ArchiveCustomTypeHandler } from './commands/archive-custom-type/archive-custom-type.handler';
import { DefineCustomTypeHandler } from './commands/define-custom-type/define-custom-type.handler';
import { CustomAttestationTypeDirectory } from './custom-type-directory';
import { CustomAttestationTypesController } from './custom-attestation-types.controller';
import { CustomTypeRepository } from './persistence/custom-type.repository';
import { GetCustomTypeHandler } from './queries/get-custom-type/get-custom-type.handler';
import { ListCustomTypesHandler } from './queries/list-custom-types/list-custom-types.handler';
import { CustomTypeRules } from './rules/custom-type-rules';

/**
 * Custom attestation types (`/custom-attestation-types/{org}`): versioned definitions of a JSON Schema and jq
 * rules. Owns `custom_attestation_types` and `custom_attestation_type_versions`.
 * Public surface: CustomAttestationTypeDirectory (judges attestation data by a type's latest version), used by
 * the `custom` attestation type.
 */
@Module({
  imports: [EvidenceLogModule],
  controllers: [CustomAttestationTypesController],
  providers: [CustomTypeRepository, CustomTypeRules, CustomAttestationTypeDirectory, DefineCustomTypeHandler, ArchiveCustomTypeHandler, GetCustomTypeHandler, ListCustomTypesHandler],
  exports: [CustomAttestationTypeDirectory],
})
export class CustomAttestationTypesModule {}

export { CustomAttestationTypeDirectory } from './custom-type-directory';
export type { CustomTypeAssessment } from './custom-type-directory';
