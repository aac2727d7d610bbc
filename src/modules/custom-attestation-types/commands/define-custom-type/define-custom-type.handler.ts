import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import type { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { PayloadTooLargeError, ValidationError } from '../../../../common/errors/app-error';
import { assertStorable } from '../../../../common/validation/strict-validation.pipe';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { CustomTypeResponse, toCustomTypeResponse } from '../../dto/custom-type.response';
import { CustomTypeRepository } from '../../persistence/custom-type.repository';
import { CustomTypeRules } from '../../rules/custom-type-rules';
import { DefineCustomTypeCommand } from './define-custom-type.command';

/**
 * Checks the schema (a JSON Schema ajv compiles, with no reference it would have to fetch) and compiles every
 * jq rule and summary expression before anything is stored: a type that cannot judge is a 400, keyed where the
 * problem is. Then a new version, unless the latest one says the same.
 */
@CommandHandler(DefineCustomTypeCommand)
export class DefineCustomTypeHandler implements ICommandHandler<DefineCustomTypeCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly types: CustomTypeRepository,
    private readonly rules: CustomTypeRules,
    private readonly evidenceLog: EvidenceLog,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(command: DefineCustomTypeCommand): Promise<CustomTypeResponse> {
    const { orgId, orgName, actor, data, schemaSource } = command.props;
    const errors: Record<string, string> = {};
    let typeSchema: unknown = null;
    if (schemaSource !== null) {
      try {
        typeSchema = JSON.parse(schemaSource);
      } catch {
        throw new ValidationError({ type_schema: 'is not valid JSON' });
      }
      if (typeof typeSchema !== 'object' || typeSchema === null || Array.isArray(typeSchema)) {
        throw new ValidationError({ type_schema: 'must be a JSON Schema object' });
      }
      // The checks data_json gets: nesting past the document limit (JSON.stringify, ajv and jsonb recurse and
      // overflow) and text jsonb cannot store are a 400 here, not a 500 further on.
      assertStorable(typeSchema, 'type_schema');
    }
    const evaluator = data.evaluator ?? null;
    const jqRules = evaluator?.rules ?? [];
    if (evaluator?.content_type === 'default' && jqRules.length) errors['evaluator.rules'] = "must be empty when content_type is 'default'";
    if ((evaluator?.content_type ?? 'jq') === 'jq' && evaluator && !evaluator.rules) errors['evaluator.rules'] = "is required when content_type is 'jq'";
    const summary = (data.summary ?? []).map((s) => ({ name: s.name, expression: s.expression }));
    if (new Set(summary.map((s) => s.name)).size !== summary.length) errors.summary = 'entry names must be unique';
    if (Object.keys(errors).length) throw new ValidationError(errors);

    const schemaDigest = typeSchema === null ? null : createHash('sha256').update(JSON.stringify(typeSchema)).digest('hex');
    const checked = await this.rules.check({ schema: typeSchema, schemaKey: schemaDigest, rules: jqRules, summary });
    if (!checked.ok) throw new ValidationError({ evaluator: `the rules could not be checked: ${checked.message}` });
    if (checked.value.schema) errors.type_schema = `is not a usable JSON Schema: ${checked.value.schema}`;
    for (const r of checked.value.rules) errors[`evaluator.rules[${r.index}]`] = `does not compile: ${r.message}`;
    for (const s of checked.value.summary) errors[`summary[${s.index}].expression`] = `does not compile: ${s.message}`;
    if (Object.keys(errors).length) throw new ValidationError(errors);

    return this.uow.run(async (manager) => {
      const created = await this.types.define(manager, orgId, data.name, actor, {
        description: data.description ?? null,
        typeSchema,
        schemaDigest,
        jqRules,
        summary,
      }, this.config.versionHistoryMaxBytes);
      if (created === 'history-full') {
        const mb = this.config.versionHistoryMaxBytes / 1024 / 1024;
        throw new PayloadTooLargeError(`The versions of custom attestation type '${data.name}' would hold more than ${mb} MB together (VERSION_HISTORY_MAX_MB): no version added; define it under a new name`);
      }
      const response = toCustomTypeResponse((await this.types.find(orgId, data.name, manager))!, orgName);
      const version = response.versions.find((v) => v.version === created);
      if (version) {
        // A new version is a record of the evidence log: the element of `versions` the read route answers.
        await this.evidenceLog.append(manager, {
          orgId,
          org: orgName,
          kind: 'custom_attestation_type_version',
          id: `${data.name}@${version.version}`,
          record: version,
          recordedAt: new Date(version.timestamp * 1000),
        });
      }
      return response;
    });
  }
}
