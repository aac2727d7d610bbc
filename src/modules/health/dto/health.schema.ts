import { object, oneOf } from '../../../common/openapi/response-schema';

export const HEALTH_SCHEMA = object({ status: oneOf('ok') });
export const READY_SCHEMA = object({ status: oneOf('ready'), database: oneOf('ok') });
