import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EntityManager } from 'typeorm';
import type { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { BadRequestError, NotFoundError, PayloadTooLargeError, ValidationError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ControlDirectory } from '../../../controls/controls.module';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { parsePolicy } from '../../domain/policy-spec';
import { PolicyResponse } from '../../dto/policy.response';
import { PolicyReader } from '../../persistence/policy.reader';
import { PolicyRepository } from '../../persistence/policy.repository';
import { PutPolicyCommand } from './put-policy.command';

@CommandHandler(PutPolicyCommand)
export class PutPolicyHandler implements ICommandHandler<PutPolicyCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly policies: PolicyRepository,
    private readonly reader: PolicyReader,
    private readonly controls: ControlDirectory,
    private readonly evidenceLog: EvidenceLog,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(command: PutPolicyCommand): Promise<{ created: boolean; policy: PolicyResponse }> {
    const { orgId, orgName, name, description, comment, yaml, actor } = command.props;
    const spec = parsePolicy(yaml);
    const created = await this.uow.run(async (manager) => {
      // A decision rule names a control that must exist (and not be archived) when the policy is saved.
      for (const [i, rule] of spec.artifacts.attestations.entries()) {
        if (rule.for_control === null) continue;
        const field = `policy_file.artifacts.attestations[${i}].for_control`;
        try {
          await this.controls.requireActive(manager, orgId, rule.for_control, field);
        } catch (error) {
          if (error instanceof NotFoundError) throw new ValidationError({ [field]: `control '${rule.for_control}' does not exist` });
          if (error instanceof BadRequestError) throw new ValidationError({ [field]: `control '${rule.for_control}' is archived` });
          throw error;
        }
      }
      let existing = await this.policies.lock(manager, orgId, name);
      if (!existing) {
        const id = await this.policies.create(manager, orgId, { name, description: description ?? '', yaml, spec, comment: comment ?? '', actor });
        if (id) {
          await this.logVersion(manager, orgId, orgName, name, 1);
          return true;
        }
        // Another request created it meanwhile (the insert waited for its commit): no conflict, this PUT is then
        // an update of that policy, under its lock, as if it had come second.
        existing = await this.policies.lock(manager, orgId, name);
        if (!existing) throw new Error(`policy '${name}' was neither inserted nor found`);
      }
      const current = await this.policies.latestYaml(manager, orgId, existing.id, existing.latest_version);
      if (current !== yaml) {
        // GET answers every version's YAML at once: the history's text stays within a budget.
        const adding = Buffer.byteLength(yaml) + Buffer.byteLength(comment ?? '');
        if ((await this.policies.historyBytes(manager, orgId, existing.id)) + adding > this.config.versionHistoryMaxBytes) {
          const mb = this.config.versionHistoryMaxBytes / 1024 / 1024;
          throw new PayloadTooLargeError(`The versions of policy '${name}' would hold more than ${mb} MB together (VERSION_HISTORY_MAX_MB): no version added; save it under a new name`);
        }
        await this.policies.addVersion(manager, orgId, existing, { description: description ?? existing.description, yaml, spec, comment: comment ?? '', actor });
        await this.logVersion(manager, orgId, orgName, name, existing.latest_version + 1);
      } else if (description != null && description !== existing.description) {
        await this.policies.setDescription(manager, orgId, existing.id, description);
      }
      return false;
    });
    const [policy] = await this.reader.list(orgId, name);
    return { created, policy };
  }

  /**
   * A new version is a record of the evidence log (kind `policy_version`): what
   * `GET /policies/{org}/{name}/versions/{version}` answers, read in this transaction.
   */
  private async logVersion(manager: EntityManager, orgId: string, orgName: string, name: string, version: number): Promise<void> {
    const record = (await this.policies.version(orgId, name, version, manager))!;
    await this.evidenceLog.append(manager, {
      orgId,
      org: orgName,
      kind: 'policy_version',
      id: `${name}@${version}`,
      record,
      recordedAt: new Date(Math.round(record.timestamp * 1e6) / 1e3),
    });
  }
}
