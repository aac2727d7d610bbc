/**
 * The compliance watch's rule: a trail's compliance changed when its status at an attestation's moment differs
 * from the last status seen (or, the first time, from its status just before that moment), and the new status
 * is one a trigger names. INCOMPLETE fires nothing: a trail going from COMPLIANT to INCOMPLETE (a template
 * change) has not become non-compliant.
 */
export function complianceTrigger(previous: string | null, current: string): 'ON_COMPLIANT_TRAIL' | 'ON_NON_COMPLIANT_TRAIL' | null {
  if (previous === current) return null;
  if (current === 'COMPLIANT') return 'ON_COMPLIANT_TRAIL';
  if (current === 'NON-COMPLIANT') return 'ON_NON_COMPLIANT_TRAIL';
  return null;
}
