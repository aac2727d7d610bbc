import { addressProblem, literalAddress, urlProblem } from './address-policy';

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:0a00:0001::1',
    '::127.0.0.1',
  ])('refuses %s', (address) => {
    expect(addressProblem(address)).not.toBeNull();
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1'])('accepts %s', (address) => {
    expect(addressProblem(address)).toBeNull();
  });

  it('takes only http(s) URLs and reads IP literals', () => {
    expect(urlProblem('ftp://example.com/x')).toMatch(/http/);
    expect(urlProblem('file:///etc/passwd')).toMatch(/http/);
    expect(urlProblem('not a url')).toMatch(/URL/);
    expect(urlProblem('https://hooks.example.com/x')).toBeNull();
    expect(literalAddress(new URL('http://[::1]:8080/x'))).toBe('::1');
    expect(literalAddress(new URL('http://127.0.0.1/x'))).toBe('127.0.0.1');
    expect(literalAddress(new URL('http://2130706433/x'))).toBe('127.0.0.1'); // WHATWG URL normalises numeric hosts
    expect(literalAddress(new URL('https://hooks.example.com/x'))).toBeNull();
  });
});
