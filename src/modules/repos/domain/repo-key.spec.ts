import { repoKeyOf } from './repo-key';

describe('repoKeyOf', () => {
  it('keys a repo by provider and the provider id, so the same id of two providers is two keys', () => {
    expect(repoKeyOf({ id: '101', name: 'acme/web', provider: 'github' })).toEqual({ provider: 'github', externalId: '101' });
    expect(repoKeyOf({ id: '101', name: 'someone/else', provider: 'gitlab' })).toEqual({ provider: 'gitlab', externalId: '101' });
  });

  it('falls back to the name without an id, and to no provider without one', () => {
    expect(repoKeyOf({ id: '', name: 'acme/web', provider: 'github' })).toEqual({ provider: 'github', externalId: 'acme/web' });
    expect(repoKeyOf({ id: null, name: 'acme/web' })).toEqual({ provider: null, externalId: 'acme/web' });
    expect(repoKeyOf({ id: '7', name: 'acme/web', provider: '' })).toEqual({ provider: null, externalId: '7' });
  });
});
