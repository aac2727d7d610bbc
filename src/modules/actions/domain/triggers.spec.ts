import { matchedScopes } from './triggers';

describe('matchedScopes', () => {
  const member = { environment: 'prod-eu', environment_type: 'K8S', logical_environments: ['all', 'prod'] };

  it('an environment action hears its environment, and a member of a logical environment it names', () => {
    expect(matchedScopes('env', ['prod-eu'], member)).toEqual(['prod-eu']);
    expect(matchedScopes('env', ['prod'], member)).toEqual(['prod']);
    expect(matchedScopes('env', ['prod', 'prod-eu', 'staging', 'all'], member)).toEqual(['all', 'prod', 'prod-eu']);
    expect(matchedScopes('env', ['prod', 'prod'], member)).toEqual(['prod']);
  });

  it('hears nothing of an environment it does not name, directly or through membership', () => {
    expect(matchedScopes('env', ['staging', 'prod-us'], member)).toEqual([]);
    // An event without the field (appended before it existed) is matched by its environment alone.
    expect(matchedScopes('env', ['prod'], { environment: 'prod-eu' })).toEqual([]);
    expect(matchedScopes('env', ['prod'], { environment: 'prod-eu', logical_environments: 'prod' })).toEqual([]);
  });

  it('a flow action matches the flow only; the two kinds never hear each other', () => {
    expect(matchedScopes('flow', ['app'], { flow: 'app', trail: 't1' })).toEqual(['app']);
    expect(matchedScopes('flow', ['prod', 'prod-eu'], member)).toEqual([]);
    expect(matchedScopes('env', ['app'], { flow: 'app', trail: 't1' })).toEqual([]);
  });
});
