import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Answer, AssessResult, CheckResult, JqRulesSandbox, RuleSet } from '../../../../libs/jq-rules/src';

/** How long a type's rules may take on one attestation's data, and to be checked when the type is defined. */
export const ASSESS_DEADLINE_MS = 2000;
export const CHECK_DEADLINE_MS = 5000;

/**
 * The process's rules sandbox (libs/jq-rules): JSON Schema and jq rules run in worker threads with a heap
 * cap and a deadline, never on the thread that serves requests.
 */
@Injectable()
export class CustomTypeRules implements OnModuleDestroy {
  private sandbox: JqRulesSandbox | null = null;

  private get pool(): JqRulesSandbox {
    return (this.sandbox ??= new JqRulesSandbox({ maxThreads: 2, maxOldGenerationSizeMb: 256 }));
  }

  check(set: RuleSet): Promise<Answer<CheckResult>> {
    return this.pool.check(set, CHECK_DEADLINE_MS);
  }

  assess(set: RuleSet, dataText: string): Promise<Answer<AssessResult>> {
    return this.pool.assess(set, dataText, ASSESS_DEADLINE_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.sandbox?.close();
    this.sandbox = null;
  }
}
