import { auditLogLine, csvField } from './environment-event.response';

describe('audit log CSV', () => {
  it('quotes fields with commas, quotes, CR or LF, doubling quotes; leaves others as they are', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rlf')).toBe('"cr\rlf"');
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('true');
    expect(csvField(1700000000.5)).toBe('1700000000.5');
  });

  it('writes one CRLF-terminated line per event, lists joined with ;', () => {
    const line = auditLogLine({
      seq: 1,
      snapshot: 3,
      created_at: 1700000000,
      type: 'started',
      artifact_name: 'web, "v2"\nbeta',
      fingerprint: 'f'.repeat(64),
      description: '1 instance started',
      flows: ['a', 'b'],
      repo_names: ['o/r'],
      artifact_compliance: null,
      snapshot_compliance: false,
    });
    expect(line).toBe(`3,1700000000,started,"web, ""v2""\nbeta",${'f'.repeat(64)},1 instance started,a;b,o/r,,false\r\n`);
  });
});
