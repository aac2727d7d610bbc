import { call } from './spec-helpers';

describe('providers.aws.sign_req', () => {
  // The GET-object example from AWS's Signature Version 4 documentation.
  const creds = {
    aws_access_key: 'AKIAIOSFODNN7EXAMPLE',
    aws_secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    aws_service: 's3',
    aws_region: 'us-east-1',
  };
  const req = { method: 'GET', url: 'https://examplebucket.s3.amazonaws.com/test.txt', headers: { Range: 'bytes=0-9' } };

  it('signs as AWS documents it', () => {
    const out = call('providers.aws.sign_req', req, creds, 1369353600000000000n) as { headers: Record<string, string> };
    expect(out.headers.Authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(out.headers['x-amz-date']).toBe('20130524T000000Z');
    expect(out.headers.Range).toBe('bytes=0-9');
  });

  it('validates the configuration', () => {
    expect(() => call('providers.aws.sign_req', req, { aws_service: 's3' }, 0)).toThrow('missing required AWS config parameters(s)');
  });
});
