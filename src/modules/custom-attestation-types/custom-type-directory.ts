import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ValidationError } from '../../common/errors/app-error';
import type { RuleOutcome } from '../../../libs/jq-rules/src';
import { CustomTypeRepository } from './persistence/custom-type.repository';
import { CustomTypeRules } from './rules/custom-type-rules';

/** A custom type's verdict on one attestation's data. */
export interface CustomTypeAssessment {
  typeName: string;
  /** The version of the type that judged the data. */
  typeVersion: number;
  isCompliant: boolean;
  /** Every reason it is not compliant: where the data breaks the schema, each rule that did not pass. */
  reasons: string[];
  /** Each rule with its verdict, in the type's order. */
  rules: RuleOutcome[];
  /** The type's summary entries, by name (null when the type has none). */
  summary: Record<string, unknown> | null;
}

/**
 * The custom attestation types module's facade: judges attestation data by the latest version of an org's
 * type. An unknown or archived type is a 400 on `type_name`; rules that fail, loop or exhaust memory make the
 * attestation non-compliant with the reason, never an error of the request.
 */
@Injectable()
export class CustomAttestationTypeDirectory {
  constructor(
    private readonly types: CustomTypeRepository,
    private readonly rules: CustomTypeRules,
  ) {}

  async assess(orgId: string, typeName: string, data: unknown): Promise<CustomTypeAssessment> {
    const found = await this.types.latest(orgId, typeName);
    if (!found) throw notFound(typeName);
    if (found.archived) throw archived(typeName);
    const { version } = found;
    const base = { typeName, typeVersion: version.version };
    const answer = await this.rules.assess(
      { schema: version.type_schema, schemaKey: version.schema_digest, rules: version.jq_rules, summary: version.summary },
      JSON.stringify(data ?? null),
    );
    if (!answer.ok) {
      return { ...base, isCompliant: false, reasons: [`the type's rules could not be evaluated: ${answer.message}`], rules: [], summary: null };
    }
    const { schemaErrors, outcomes, summary } = answer.value;
    const reasons = [...schemaErrors.map((e) => `attestation_data does not match the type's schema: ${e}`), ...outcomes.filter((o) => !o.passed).map((o) => o.reason!)];
    return {
      ...base,
      isCompliant: reasons.length === 0,
      reasons,
      rules: outcomes,
      summary: version.summary.length ? Object.fromEntries(summary.map((s) => [s.name, s.value])) : null,
    };
  }

  /**
   * Checked again in the transaction that writes the attestation, after `assess` (whose rules run up to 2 s):
   * the type's row is held FOR SHARE until that transaction ends, so an archive either committed before (then
   * this is the same 400 as `assess` gives, and nothing is written) or waits until the attestation is stored.
   */
  async requireActive(manager: EntityManager, orgId: string, typeName: string): Promise<void> {
    const row = await this.types.lockShared(manager, orgId, typeName);
    if (!row) throw notFound(typeName);
    if (row.archived) throw archived(typeName);
  }
}

const notFound = (typeName: string) => new ValidationError({ type_name: `custom attestation type '${typeName}' does not exist in this organization` });
const archived = (typeName: string) => new ValidationError({ type_name: `custom attestation type '${typeName}' is archived` });
