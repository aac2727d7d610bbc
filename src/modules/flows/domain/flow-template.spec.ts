import { ValidationError } from '../../../common/errors/app-error';
import { parseFlowTemplate } from './flow-template';

function errorsOf(source: string): Record<string, string> {
  try {
    parseFlowTemplate(source);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).errors!;
  }
  throw new Error('expected a validation error');
}

describe('parseFlowTemplate', () => {
  it('parses trail and artifact attestations, keeping repeated names', () => {
    const spec = parseFlowTemplate(`
version: 1
trail:
  attestations:
    - name: pull-request
      type: pull_request
    - name: pull-request
      type: generic
  artifacts:
    - name: backend
      attestations:
        - name: unit-test
          type: junit
        - name: scan
          type: custom:snyk-scan
    - name: frontend
`);
    expect(spec).toEqual({
      version: 1,
      trail: {
        attestations: [
          { name: 'pull-request', type: 'pull_request' },
          { name: 'pull-request', type: 'generic' },
        ],
        artifacts: [
          { name: 'backend', attestations: [{ name: 'unit-test', type: 'junit' }, { name: 'scan', type: 'custom:snyk-scan' }] },
          { name: 'frontend', attestations: [] },
        ],
      },
    });
  });

  it('accepts an empty trail, and version alone', () => {
    expect(parseFlowTemplate('version: 1')).toEqual({ version: 1, trail: { attestations: [], artifacts: [] } });
    expect(parseFlowTemplate('version: 1\ntrail:\n')).toEqual({ version: 1, trail: { attestations: [], artifacts: [] } });
  });

  it('reports every problem at its path', () => {
    expect(
      errorsOf(`
version: 2
extra: true
trail:
  attestations:
    - name: ok
    - name: "bad name"
      type: generic
      colour: red
  artifacts:
    - attestations: 3
`),
    ).toEqual({
      'template_file.version': 'must be 1',
      'template_file.extra': 'unknown field: it is not part of a version 1 template',
      'template_file.trail.attestations[0].type': 'is required',
      'template_file.trail.attestations[1].name': expect.stringContaining('must match'),
      'template_file.trail.attestations[1].colour': 'unknown field: it is not part of a version 1 template',
      'template_file.trail.artifacts[0].name': 'is required',
      'template_file.trail.artifacts[0].attestations': 'must be a list',
    });
  });

  it('refuses names longer than 256 characters, naming each field (256 is fine)', () => {
    const long = 'a'.repeat(257);
    const ok = 'b'.repeat(256);
    expect(
      errorsOf(`version: 1
trail:
  attestations:
    - name: ${long}
      type: generic
    - name: ${ok}
      type: generic
  artifacts:
    - name: ${long}
      attestations:
        - name: ${ok}
          type: ${long}
`),
    ).toEqual({
      'template_file.trail.attestations[0].name': 'must be shorter than or equal to 256 characters',
      'template_file.trail.artifacts[0].name': 'must be shorter than or equal to 256 characters',
      'template_file.trail.artifacts[0].attestations[0].type': 'must be shorter than or equal to 256 characters',
    });
  });

  it('rejects malformed YAML, non-mappings, and a missing version or trail', () => {
    expect(errorsOf('version: 1\ntrail: [unclosed')).toEqual({ template_file: expect.stringContaining('is not valid YAML') });
    expect(errorsOf('- a\n- b')).toEqual({ template_file: expect.stringContaining('mapping') });
    expect(errorsOf('{}')).toEqual({ 'template_file.version': 'is required' });
    expect(errorsOf('version: 1\ntrail: [a]')).toEqual({ 'template_file.trail': 'must be a mapping' });
    expect(errorsOf('version: 1\ntrail:\n  attestations:\n    - name: a\n      type: generic\nversion: 1')).toEqual({
      template_file: expect.stringContaining('is not valid YAML'),
    });
  });
});
