import { ValidationError } from '../../../../common/errors/app-error';
import { attestationNameFor, launchDarklyChange, parseResource, trailNameFor } from './launch-darkly-event';

const APP = 'https://app.launchdarkly.com';
const event = (over: Record<string, unknown> = {}) => ({
  _id: 'e1',
  kind: 'flag',
  date: 1764201600000,
  accesses: [{ action: 'updateRules', resource: 'proj/shop:env/production:flag/checkout.v2' }],
  titleVerb: 'changed the targeting rules of',
  member: { email: 'ana@example.com' },
  _links: { site: { href: '/shop/production/features/checkout.v2' } },
  ...over,
});

describe('launchDarklyChange', () => {
  it('reads the flag, project, environment, actions, who, when and the app link from an audit log entry', () => {
    expect(launchDarklyChange(event(), APP)).toEqual({
      flag: 'checkout.v2',
      flag_name: null,
      project: 'shop',
      environment: 'production',
      actions: ['updateRules'],
      title: 'changed the targeting rules of',
      changed_by: 'ana@example.com',
      changed_at: '2025-11-27T00:00:00.000Z',
      url: 'https://app.launchdarkly.com/shop/production/features/checkout.v2',
      event_id: 'e1',
      comment: null,
    });
  });

  it('a change to the flag itself has no environment; an API token is who when no member is', () => {
    const c = launchDarklyChange(event({ accesses: [{ action: 'updateName', resource: 'proj/shop:env/*:flag/f' }], member: undefined, token: { name: 'ci-bot' } }), APP)!;
    expect([c.environment, c.changed_by]).toEqual([null, 'ci-bot']);
    expect(trailNameFor('ld-{environment}', c)).toBe('ld-all-environments');
  });

  it('ignores events that are not about a flag; a flag event with no flag resource is a 400', () => {
    expect(launchDarklyChange(event({ kind: 'member' }), APP)).toBeNull();
    expect(() => launchDarklyChange(event({ accesses: [{ action: 'updateOn', resource: 'proj/shop' }] }), APP)).toThrow(ValidationError);
  });

  it('names the slot and trail with characters the names cannot hold as -', () => {
    const c = launchDarklyChange(event(), APP)!;
    expect(attestationNameFor(c)).toBe('checkout-v2');
    expect(trailNameFor('{project}/{flag} {environment}', c)).toBe('shop-checkout.v2-production');
    expect(parseResource('proj/p:env/e;tag1,tag2:flag/k')).toEqual({ project: 'p', environment: 'e', flag: 'k' });
  });
});
