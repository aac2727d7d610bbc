/**
 * What the Kubernetes API server checks in a webhook's `clientConfig` before it stores a
 * ValidatingWebhookConfiguration, beyond the schema (which takes any string): the rules its documentation states
 * for `url` (https, no user, no query string, no fragment) and for `service.path` (starts with `/`, every segment
 * a DNS-1123 subdomain). The schema validation of kubernetes-models does not see these, so a manifest could pass
 * the tests and still be refused by a real cluster.
 */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function webhookUrlProblems(raw: string): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ['not a URL'];
  }
  const problems: string[] = [];
  if (url.protocol !== 'https:') problems.push("the scheme must be 'https'");
  if (!url.hostname) problems.push('a host is required');
  if (url.username || url.password) problems.push('user information is not allowed');
  if (raw.includes('?')) problems.push('query parameters are not allowed');
  if (raw.includes('#')) problems.push('fragments are not allowed');
  return problems;
}

export function webhookServicePathProblems(path: string): string[] {
  if (path === '' || path === '/') return [];
  if (!path.startsWith('/')) return ["must start with a '/'"];
  const segments = path.slice(1).replace(/\/$/, '').split('/');
  return segments.flatMap((segment, i) => {
    if (!segment) return [`segment[${i}] may not be empty`];
    if (segment.length > 253 || !DNS1123_SUBDOMAIN.test(segment)) return [`segment[${i}] '${segment}' is not a DNS-1123 subdomain`];
    return [];
  });
}
