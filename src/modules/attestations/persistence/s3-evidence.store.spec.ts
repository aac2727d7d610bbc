import { InsufficientResourcesError } from '../../../common/errors/resource-errors';
import { EvidenceStoreUnavailableError } from '../evidence-errors';
import { unavailableOr } from './s3-evidence.store';

describe('S3 evidence store errors', () => {
  it('a full bucket is out of storage; other 5xx and network failures are "unavailable"; anything else stays itself', () => {
    const full = unavailableOr({ name: 'InsufficientStorage', message: 'Storage backend has reached its minimum free drive threshold', $metadata: { httpStatusCode: 507 } });
    expect(full).toBeInstanceOf(InsufficientResourcesError);
    expect(full).toMatchObject({ resource: 'storage', store: 'evidence_store', status: 503, message: 'The server is out of storage; retry later' });
    expect(unavailableOr({ name: 'InternalError', $metadata: { httpStatusCode: 500 } })).toBeInstanceOf(EvidenceStoreUnavailableError);
    expect(unavailableOr(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeInstanceOf(EvidenceStoreUnavailableError);
    const tooLarge = { name: 'EntityTooLarge', $metadata: { httpStatusCode: 400 } };
    expect(unavailableOr(tooLarge)).toBe(tooLarge);
  });
});
