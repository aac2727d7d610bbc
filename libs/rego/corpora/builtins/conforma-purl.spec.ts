import { parsePurl } from './conforma-purl';

describe('ec.purl (packageurl-go v0.1.3 FromString)', () => {
  it('parses type, namespace, name, version, sorted non-empty qualifiers and subpath', () => {
    expect(parsePurl('pkg:rpm/RedHat/Bash@5.1-2.el9?repository_id=rhel-9&arch=x86_64&empty=#/sub/dir/')).toEqual({
      type: 'rpm',
      namespace: 'redhat',
      name: 'Bash',
      version: '5.1-2.el9',
      qualifiers: [
        { key: 'arch', value: 'x86_64' },
        { key: 'repository_id', value: 'rhel-9' },
      ],
      subpath: 'sub/dir',
    });
    expect(parsePurl('pkg:oci/ubi-minimal@sha256%3Aabc?repository_url=quay.io/x').version).toBe('sha256:abc');
    expect(parsePurl('pkg:pypi/Django_Rest@1').name).toBe('django-rest');
    expect(parsePurl('pkg://npm/@scope/Left-Pad').namespace).toBe('@scope');
  });

  it('refuses what FromString refuses', () => {
    for (const bad of ['rpm/redhat/bash', 'pkg:rpm', 'pkg:rpm/', 'pkg:rpm/a?x;y=1', 'pkg:rpm/a?1x=2', 'pkg:swift/name', 'pkg:rpm/%zz', 'pkg:rpm/a?k=1&K=2']) {
      expect(() => parsePurl(bad)).toThrow();
    }
  });
});
