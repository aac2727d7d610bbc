export { JqRulesSandbox, defaultWorkerFile } from './sandbox';
export type { JqRulesSandboxOptions, Answer, SandboxFailure } from './sandbox';
export type { RuleSet, CheckResult, AssessResult } from './protocol';
export type { RuleOutcome, SummaryExpression, SummaryValue } from './program';
