import { call, callRaw, testContext } from './spec-helpers';
import { Value } from '../value';

// A throwaway EC root and leaf generated for these tests (valid 2026-2126).
const ROOT = [
  '-----BEGIN CERTIFICATE-----',
  'MIIByjCCAXGgAwIBAgIUNX8+ELjxiSw0YBzK1lJeMJHafggwCgYIKoZIzj0EAwIw',
  'OjELMAkGA1UEBhMCVVMxFzAVBgNVBAoMDlZlcml0cmFpbCBUZXN0MRIwEAYDVQQD',
  'DAlUZXN0IFJvb3QwIBcNMjYxMTIxMjM1ODM4WhgPMjEyNjEwMjgyMzU4MzhaMDox',
  'CzAJBgNVBAYTAlVTMRcwFQYDVQQKDA5WZXJpdHJhaWwgVGVzdDESMBAGA1UEAwwJ',
  'VGVzdCBSb290MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE0PCLh9tHRBLduP45',
  'NNfnhwG8jvUpMEcBH5GcQOQedO4dnlh+w/LI2GcHlV1O7LXQEek2Nyl/2UpW3Q3q',
  'UrSOGqNTMFEwHQYDVR0OBBYEFLGTu0DDbh36w36blBwhG88szUyzMB8GA1UdIwQY',
  'MBaAFLGTu0DDbh36w36blBwhG88szUyzMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZI',
  'zj0EAwIDRwAwRAIgf9yhNBS5nGVUdzyUvqp41KvW66vhbTYfYaAr1rZ2Vy8CIHpW',
  '1LSGsi8kdK6agvNA4capjKjQF6K0U0C8Q0BF8ERK',
  '-----END CERTIFICATE-----'
].join('\n');
const LEAF = [
  '-----BEGIN CERTIFICATE-----',
  'MIICDjCCAbOgAwIBAgIUS9g3shs/qN772Qx6U7L5/IdoBjIwCgYIKoZIzj0EAwIw',
  'OjELMAkGA1UEBhMCVVMxFzAVBgNVBAoMDlZlcml0cmFpbCBUZXN0MRIwEAYDVQQD',
  'DAlUZXN0IFJvb3QwIBcNMjYxMTIxMjM1ODM4WhgPMjEyNjEwMjgyMzU4MzhaMDQx',
  'FzAVBgNVBAoMDlZlcml0cmFpbCBUZXN0MRkwFwYDVQQDDBBsZWFmLmV4YW1wbGUu',
  'Y29tMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE34sWFsJm8pwuq5WCIq4RGJEk',
  'ITvcnMKwm+n9DrmNaPBQ/s4YVxdGe+xb0WqVJAzxePDFbk7uotnbncKgi9z4haOB',
  'mjCBlzBABgNVHREEOTA3ghBsZWFmLmV4YW1wbGUuY29tgg93d3cuZXhhbXBsZS5j',
  'b22GEnNwaWZmZTovL2V4YW1wbGUveDATBgNVHSUEDDAKBggrBgEFBQcDATAdBgNV',
  'HQ4EFgQUZ+/YHLkofBheCbBIs4i3VVuDSxswHwYDVR0jBBgwFoAUsZO7QMNuHfrD',
  'fpuUHCEbzyzNTLMwCgYIKoZIzj0EAwIDSQAwRgIhAPKLfKy0ve5v3Ubm+jmocAy1',
  'rUh4ZZe7vE47cXI/fBf/AiEA4L5rqOXzE1TP0EighM+uud4bz+eeu99TKhm1Wyww',
  'zTw=',
  '-----END CERTIFICATE-----'
].join('\n');
const LEAF_KEY = [
  '-----BEGIN PRIVATE KEY-----',
  'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7Lp/yfw59KyoDALv',
  '9JfLzAgHnj0bgfQW8IH+npVHy4ehRANCAATfixYWwmbynC6rlYIirhEYkSQhO9yc',
  'wrCb6f0OuY1o8FD+zhhXF0Z77FvRapUkDPF48MVuTu6i2dudwqCL3PiF',
  '-----END PRIVATE KEY-----'
].join('\n');

const CSR = [
  '-----BEGIN CERTIFICATE REQUEST-----',
  'MIIBNTCB3AIBADBAMQswCQYDVQQGEwJERTEXMBUGA1UECgwOVmVyaXRyYWlsIFRl',
  'c3QxGDAWBgNVBAMMD2Nzci5leGFtcGxlLmNvbTBZMBMGByqGSM49AgEGCCqGSM49',
  'AwEHA0IABN+LFhbCZvKcLquVgiKuERiRJCE73JzCsJvp/Q65jWjwUP7OGFcXRnvs',
  'W9FqlSQM8XjwxW5O7qLZ253CoIvc+IWgOjA4BgkqhkiG9w0BCQ4xKzApMCcGA1Ud',
  'EQQgMB6CD2Nzci5leGFtcGxlLmNvbYcECgAAAYEFYUBiLmMwCgYIKoZIzj0EAwID',
  'SAAwRQIgbsaXkqP3woYcTXW9sO6aFDRRr/vu2TK+EfsI200pBHYCIQDgW5Gz+4aF',
  'EmmXpKQ27zsGVjO3v5eauQiYyA2dRK2kAQ==',
  '-----END CERTIFICATE REQUEST-----'
].join('\n');

const now = testContext({ nowNs: BigInt(Date.UTC(2030, 0, 1)) * 1000000n });

describe('x509 and keys', () => {
  it('parses certificates into Go-named fields', () => {
    const [c] = call('crypto.x509.parse_certificates', LEAF) as Array<Record<string, any>>;
    expect(c.Subject.CommonName).toBe('leaf.example.com');
    expect(c.Subject.Organization).toEqual(['Veritrail Test']);
    expect(c.Issuer.CommonName).toBe('Test Root');
    expect(c.DNSNames).toEqual(['leaf.example.com', 'www.example.com']);
    expect(c.URIStrings).toEqual(['spiffe://example/x']);
    expect(c.ExtKeyUsage).toEqual([1]);
    expect(c.IsCA).toBe(false);
    expect(c.NotBefore).toMatch(/^2026-/);
  });

  it('verifies chains root first, leaf last', () => {
    const ok = callRaw('crypto.x509.parse_and_verify_certificates', [ROOT + '\n' + LEAF], now) as Value[];
    expect(ok[0]).toBe(true);
    expect((ok[1] as Value[]).length).toBe(2);
    expect((callRaw('crypto.x509.parse_and_verify_certificates', [LEAF + '\n' + ROOT], now) as Value[])[0]).toBe(false);
    const early = testContext({ nowNs: 1700000000000000000n });
    expect((callRaw('crypto.x509.parse_and_verify_certificates', [ROOT + '\n' + LEAF], early) as Value[])[0]).toBe(false);
  });

  it('parses private keys and key pairs as JWKs', () => {
    const [k] = call('crypto.parse_private_keys', LEAF_KEY) as Array<Record<string, unknown>>;
    expect(k.kty).toBe('EC');
    expect(k.crv).toBe('P-256');
    const pair = call('crypto.x509.parse_keypair', LEAF, LEAF_KEY) as Record<string, unknown>;
    expect((pair.Certificate as string[]).length).toBe(1);
    expect(() => call('crypto.x509.parse_certificates', 'not a cert')).toThrow();
  });

  it('parses certificate requests and certificate extras from DER', () => {
    const r = call('crypto.x509.parse_certificate_request', CSR) as Record<string, any>;
    expect(r.Subject.CommonName).toBe('csr.example.com');
    expect(r.Subject.Country).toEqual(['DE']);
    expect(r.DNSNames).toEqual(['csr.example.com']);
    expect(r.IPAddresses).toEqual(['10.0.0.1']);
    expect(r.EmailAddresses).toEqual(['a@b.c']);
    expect(r.SignatureAlgorithm).toBe(10); // ECDSAWithSHA256
    expect(r.PublicKeyAlgorithm).toBe(3);
    const [root] = call('crypto.x509.parse_certificates', ROOT) as Array<Record<string, any>>;
    expect(root.IsCA).toBe(true);
    expect(root.Version).toBe(3);
    expect(root.SubjectKeyId).toBe(root.AuthorityKeyId);
  });
});
