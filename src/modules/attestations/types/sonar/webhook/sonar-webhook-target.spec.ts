import { ValidationError } from '../../../../../common/errors/app-error';
import { sonarWebhookTarget } from './sonar-webhook-target';

const SHA = 'ae08fc6a5c963ae8dfaa0c27d8e5de9980d433b6';
const naming = { flow_name_from: 'key' as const, flow_name_prefix: '', flow_name_suffix: '' };
const analysis = (properties?: Record<string, string>) => ({
  analysedAt: '2026-11-26T21:40:12+0000',
  revision: SHA,
  project: { key: 'org:shop api', name: 'Shop API', url: 'https://sonar.example.com/dashboard?id=shop' },
  ...(properties ? { properties } : {}),
});

describe('sonarWebhookTarget', () => {
  it('takes flow, trail, artifact slot, commit and fingerprint from the scanner properties', () => {
    const t = sonarWebhookTarget(
      analysis({
        'sonar.analysis.kosli_flow': 'shop-ci',
        'sonar.analysis.kosli_trail': 'release-7',
        'sonar.analysis.kosli_attestation': 'backend.code-quality',
        'sonar.analysis.kosli_git_commit': '3f1c0d2b9a8e7f6d5c4b3a29181716151413121a',
        'sonar.analysis.kosli_artifact_fingerprint': 'a'.repeat(64),
      }),
      naming,
    );
    expect(t).toMatchObject({ flowName: 'shop-ci', trailName: 'release-7' });
    expect(t.data).toMatchObject({
      attestation_name: 'code-quality',
      target_artifacts: ['backend'],
      artifact_fingerprint: 'a'.repeat(64),
      git_commit_info: { sha1: '3f1c0d2b9a8e7f6d5c4b3a29181716151413121a' },
      origin_url: 'https://sonar.example.com/dashboard?id=shop',
    });
  });

  it('without properties: the flow from the project (invalid characters as -), the trail and commit from the revision', () => {
    expect(sonarWebhookTarget(analysis(), naming)).toMatchObject({ flowName: 'org-shop-api', trailName: SHA, data: { attestation_name: 'sonar', git_commit_info: { sha1: SHA } } });
    const byName = sonarWebhookTarget(analysis(), { flow_name_from: 'name', flow_name_prefix: 'sq-', flow_name_suffix: '-main' });
    expect(byName.flowName).toBe('sq-Shop-API-main');
  });

  it('400 for explicit names that are not valid, keyed by the property', () => {
    const bad = () =>
      sonarWebhookTarget(
        analysis({ 'sonar.analysis.kosli_flow': '-no', 'sonar.analysis.kosli_attestation': 'a.b.c', 'sonar.analysis.kosli_git_commit': 'main' }),
        naming,
      );
    expect(bad).toThrow(ValidationError);
    try {
      bad();
    } catch (error) {
      expect(Object.keys((error as ValidationError).errors!).sort()).toEqual([
        'properties.sonar.analysis.kosli_attestation',
        'properties.sonar.analysis.kosli_flow',
        'properties.sonar.analysis.kosli_git_commit',
      ]);
    }
  });
});
