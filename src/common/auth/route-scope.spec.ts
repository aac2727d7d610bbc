import { classifyRoute, pathParams, RouteMarkers } from './route-scope';

const none: RouteMarkers = {
  isPublic: false,
  operatorOnly: false,
  notOrgScoped: undefined,
  basicAuthAllowed: false,
  requiredRole: undefined,
  requiredBeta: undefined,
};
const classify = (markers: Partial<RouteMarkers>, path: string) => classifyRoute({ ...none, ...markers }, pathParams(path));

describe('pathParams', () => {
  it('reads Express 5 parameters: named, quoted, wildcard, optional', () => {
    expect(pathParams('/trails/:org/:flow/:trail/moments/:expression').map((p) => p.name)).toEqual([
      'org',
      'flow',
      'trail',
      'expression',
    ]);
    expect(pathParams('/repos/:org/*name')).toEqual([
      { name: 'org', wildcard: false, optional: false },
      { name: 'name', wildcard: true, optional: false },
    ]);
    expect(pathParams('/x/:"org id"{/:page}')).toEqual([
      { name: 'org id', wildcard: false, optional: false },
      { name: 'page', wildcard: false, optional: true },
    ]);
    expect(pathParams('/literal\\:org/health')).toEqual([]);
  });
});

describe('classifyRoute', () => {
  it('gives each well-formed route exactly one scope', () => {
    expect(classify({ isPublic: true }, '/health')).toEqual({ scope: 'public' });
    expect(classify({ operatorOnly: true }, '/admin/organizations')).toEqual({ scope: 'operator' });
    expect(classify({ operatorOnly: true }, '/admin/organizations/:org/members')).toEqual({ scope: 'operator' });
    expect(classify({}, '/flows/:org/:flow')).toEqual({ scope: 'org-scoped' });
    expect(classify({ requiredRole: 'admin', requiredBeta: 'controls' }, '/controls/:org')).toEqual({ scope: 'org-scoped' });
    expect(classify({ notOrgScoped: 'lists the orgs of the caller' }, '/me/organizations')).toEqual({ scope: 'not-org-scoped' });
  });

  it.each([
    ['an org parameter under another name', {}, '/flows/:organization', /no :org path parameter and no scope marker/],
    ['no parameter and no marker', {}, '/stats', /@NotOrgScoped\('why'\)/],
    ['two markers', { isPublic: true, notOrgScoped: 'x' }, '/x', /@Public\(\) and @NotOrgScoped\(\)/],
    ['a public route with :org', { isPublic: true }, '/flows/:org', /marked @Public\(\) but has an :org path parameter/],
    ['a not-org-scoped route with :org', { notOrgScoped: 'x' }, '/flows/:org', /marked @NotOrgScoped\(\) but has an :org/],
    ['@NotOrgScoped without a reason', { notOrgScoped: ' ' }, '/x', /needs a reason/],
    ['a role on a public route', { isPublic: true, requiredRole: 'admin' as const }, '/x', /@RequiresRole\(\) only work on org-scoped/],
    ['a beta flag on a not-org-scoped route', { notOrgScoped: 'x', requiredBeta: 'controls' as const }, '/x', /@RequiresBeta\(\)/],
    ['an optional :org', {}, '/flows{/:org}', /plain, required segment/],
    ['a wildcard org', {}, '/flows/*org', /plain, required segment/],
  ])('refuses %s', (_, markers, path, reason) => {
    const decision = classify(markers, path);
    expect(decision.scope).toBeUndefined();
    expect(decision.refusal).toMatch(reason);
  });
});
