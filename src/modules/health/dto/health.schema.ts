import { describe, object, oneOf, string } from '../../../common/openapi/response-schema';

export const HEALTH_SCHEMA = object({ status: oneOf('ok') });
export const READY_SCHEMA = object({ status: oneOf('ready'), database: oneOf('ok'), storage: oneOf('ok', 'exhausted') });
export const METRICS_SCHEMA = describe(string, 'Prometheus text exposition format (version 0.0.4)');
