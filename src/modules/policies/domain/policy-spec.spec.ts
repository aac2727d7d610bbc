import { ValidationError } from '../../../common/errors/app-error';
import { parsePolicy } from './policy-spec';

const V1 = '_schema: https://docs.kosli.com/schemas/policy/v1\n';
const errorsOf = (source: string) => {
  try {
    parsePolicy(source);
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('expected a ValidationError');
};

describe('parsePolicy', () => {
  it('fills every default of the format', () => {
    expect(parsePolicy(V1)).toEqual({
      _schema: 'https://docs.kosli.com/schemas/policy/v1',
      artifacts: { provenance: { required: false, exceptions: [] }, 'trail-compliance': { required: false, exceptions: [] }, attestations: [] },
    });
    expect(parsePolicy(`${V1}artifacts:\n  attestations:\n    - type: junit\n`).artifacts.attestations).toEqual([
      { type: 'junit', name: '*', if: null, must_be_compliant: true, for_control: null },
    ]);
  });

  it('accepts every type name of the format, registered here or not, and custom types', () => {
    for (const type of ['generic', 'junit', 'snyk', 'pull_request', 'jira', 'sonar', 'decision', 'custom:coverage-metrics']) {
      expect(parsePolicy(`${V1}artifacts:\n  attestations:\n    - name: x\n      type: ${type}\n`).artifacts.attestations[0].type).toBe(type);
    }
    expect(errorsOf(`${V1}artifacts:\n  attestations:\n    - name: x\n      type: "custom:"\n`)).toEqual({
      'policy_file.artifacts.attestations[0].type': 'must be one of generic, junit, snyk, pull_request, jira, sonar, decision, * or custom:<name>',
    });
  });

  it('names the path of every problem at once', () => {
    expect(
      errorsOf(
        '_schema: https://docs.kosli.com/schemas/policy/v3\nartifacts:\n  provenance:\n    exceptions:\n      - if: 3\n      - when: x\n  attestations:\n    - name: a\n',
      ),
    ).toEqual({
      'policy_file.artifacts.provenance.exceptions[0].if': 'must be an expression written ${{ ... }}',
      'policy_file.artifacts.provenance.exceptions[1].when': 'unknown field: it is not part of a version 1 policy',
      'policy_file.artifacts.attestations[0].type': 'is required',
    });
    expect(errorsOf('_schema: https://docs.kosli.com/schemas/policy/v3\n')).toEqual({ 'policy_file._schema': 'unknown major version v3: this server reads v1' });
    expect(errorsOf('_schema: policy\n')).toEqual({ 'policy_file._schema': expect.stringContaining('must end with /v<major version>') });
    expect(errorsOf('_schema: x\n_schema: y\n')).toEqual({ policy_file: expect.stringContaining('map keys must be unique') });
    expect(errorsOf(`${V1}a: &x 1\nb: *x\n`)).toEqual({ policy_file: expect.stringContaining('aliases') });
  });
});
