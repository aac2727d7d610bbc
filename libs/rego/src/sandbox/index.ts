export { RegoSandbox, defaultWorkerFile } from './sandbox';
export type { SandboxOptions } from './sandbox';
export type { SandboxRequest, SandboxResult, SandboxErrorInfo, SandboxStats } from './protocol';
export { bundleDigest } from './digest';
export { isRefQuery } from './ref-query';
