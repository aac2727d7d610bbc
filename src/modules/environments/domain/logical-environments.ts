/**
 * A logical environment groups physical ones (K8S, ECS, S3 ...) so that what runs in all of them is seen in one
 * place; it takes no reports and has no snapshots of its own. Its view at an instant is the union of each
 * member's snapshot at that instant; it is compliant when every member's is.
 */
export const ONLY_PHYSICAL = 'Only physical environments can be added to logical environments';
