import { parseAuthorization } from './credentials';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('parseAuthorization', () => {
  it('reads Bearer keys, any case of the scheme', () => {
    expect(parseAuthorization('Bearer abc')).toEqual({ scheme: 'bearer', key: 'abc' });
    expect(parseAuthorization('bearer  abc ')).toEqual({ scheme: 'bearer', key: 'abc' });
  });

  it('takes the Basic username as the key, and the password as a second candidate', () => {
    expect(parseAuthorization(basic('key1:'))).toEqual({ scheme: 'basic', candidates: ['key1'] });
    expect(parseAuthorization(basic('user:key2'))).toEqual({ scheme: 'basic', candidates: ['user', 'key2'] });
    expect(parseAuthorization(basic(':key3'))).toEqual({ scheme: 'basic', candidates: ['key3'] });
  });

  it('flags missing and malformed headers', () => {
    expect(parseAuthorization(undefined)).toEqual({ scheme: 'none' });
    expect(parseAuthorization('Bearer')).toMatchObject({ scheme: 'invalid' });
    expect(parseAuthorization('Basic !!!')).toMatchObject({ scheme: 'invalid' });
    expect(parseAuthorization(basic('nocolon'))).toMatchObject({ scheme: 'invalid' });
    expect(parseAuthorization(basic(':'))).toMatchObject({ scheme: 'invalid' });
    expect(parseAuthorization('Digest x')).toMatchObject({ scheme: 'invalid', reason: expect.stringContaining('Digest') });
  });
});
