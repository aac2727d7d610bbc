/**
 * Turns whatever an evaluation threw into a plain SandboxErrorInfo that survives postMessage. JS engine limits
 * hit inside the worker (stack overflow, arrays or strings too long) are the policy exhausting resources, so
 * they are reported as policy_resource_limit rather than as crashes.
 */
import { SandboxErrorInfo } from './protocol';

export function toErrorInfo(e: unknown): SandboxErrorInfo {
  if (e && typeof e === 'object') {
    const x = e as { code?: unknown; message?: unknown; location?: unknown; errors?: unknown };
    if (typeof x.code === 'string' && /^(rego|eval|policy)_/.test(x.code)) {
      const info: SandboxErrorInfo = { code: x.code, message: String(x.message ?? '') };
      const loc = x.location as { file?: unknown; row?: unknown; col?: unknown } | undefined;
      if (loc && typeof loc === 'object') {
        info.location = { file: String(loc.file ?? ''), row: Number(loc.row ?? 0), col: Number(loc.col ?? 0) };
      }
      if (Array.isArray(x.errors) && x.errors.length > 0) info.errors = x.errors.map(toErrorInfo);
      return info;
    }
    if (e instanceof RangeError && /call stack|Invalid (array|string|typed array) length|allocation failed/i.test(e.message)) {
      return { code: 'policy_resource_limit', message: `evaluation exhausted resources: ${e.message}` };
    }
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'sandbox_error', message: `internal error: ${message}` };
}
