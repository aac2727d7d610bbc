import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { ValidationError } from '../errors/app-error';
import { BeginTrailDataDto } from '../../modules/trails/commands/begin-trail/begin-trail.request.dto';
import { ReportArtifactRequestDto } from '../../modules/artifacts/commands/report-artifact/report-artifact.request.dto';
import { GenericAttestationRequestDto } from '../../modules/attestations/types/generic/generic-attestation.request.dto';
import { GitCommitInfoDto } from '../evidence/evidence-common.dto';
import { acceptIfValid } from './compiled-validation';
import { validateDto, validateFully } from './strict-validation.pipe';

class Item {
  @IsString() @Matches(/^[a-z]+$/) name: string;
  @IsOptional() @IsBoolean() flag?: boolean | null;
}
class Holder {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Item) items: Item[];
  @IsOptional() @ValidateNested() @Type(() => Item) single?: Item | null;
  @IsOptional() @IsString({ each: true }) @MaxLength(3, { each: true }) tags?: string[] | null;
  @ValidateIf((o: Holder) => o.tags !== undefined) @IsString() when_tagged?: string;
}

/** What the full class-transformer + class-validator path says; it may only ever throw a ValidationError. */
function slow(cls: new () => object, value: unknown): { valid: boolean; instance?: object } {
  try {
    return { valid: true, instance: validateFully(cls, value as Record<string, unknown>) };
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return { valid: false };
  }
}

/** Keys that class-transformer's own copy of an object loses or chokes on. */
const RESERVED_KEYS = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

const ODD_VALUES: unknown[] = [null, 0, 1.5, -1, 'x', '', 'UPPER', 'a'.repeat(70), true, false, [], ['a'], [1], {}, { a: 1 }, { href: 'h' }];

/** The sample, and the sample changed in one place: each field removed, replaced by odd values, an unknown key added, recursively. */
function variants(value: unknown, depth = 0): unknown[] {
  const out: unknown[] = [value];
  if (depth > 2) return out;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const v of variants(item, depth + 1).slice(1)) out.push(value.map((x, j) => (j === i ? v : x)));
    });
    out.push([...value, ...ODD_VALUES.slice(0, 3)]);
    return out;
  }
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const { [key]: _removed, ...rest } = object;
      out.push(rest);
      for (const odd of ODD_VALUES) out.push({ ...object, [key]: odd });
      for (const v of variants(object[key], depth + 1).slice(1)) out.push({ ...object, [key]: v });
    }
    out.push({ ...object, unknown_field: 1 });
    for (const key of RESERVED_KEYS) out.push(JSON.parse(`{"${key}": {"x": 1}, ${JSON.stringify(object).slice(1)}`));
    for (const key of RESERVED_KEYS) out.push(JSON.parse(`{"${key}": "x", ${JSON.stringify(object).slice(1)}`));
  }
  return out;
}

function agree(cls: new () => object, sample: unknown): { accepted: number; rejected: number } {
  let accepted = 0;
  let rejected = 0;
  for (const candidate of variants(sample)) {
    const fast = acceptIfValid(cls, JSON.parse(JSON.stringify(candidate)));
    const full = slow(cls, JSON.parse(JSON.stringify(candidate)));
    if (fast) {
      accepted++;
      // Never accepts what class-validator rejects, and builds the same thing.
      expect({ candidate, valid: full.valid }).toEqual({ candidate, valid: true });
      expect(fast).toBeInstanceOf(cls);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(full.instance));
    } else if (!full.valid) {
      rejected++;
    }
  }
  return { accepted, rejected };
}

describe('acceptIfValid (the compiled fast path of validateDto)', () => {
  it('accepts valid input as class instances, nested ones included', () => {
    const dto = acceptIfValid(Holder, { items: [{ name: 'abc' }, { name: 'd', flag: null }], single: { name: 'e' }, tags: ['ab'], when_tagged: 'y' });
    expect(dto).toBeInstanceOf(Holder);
    expect(dto!.items[1]).toBeInstanceOf(Item);
    expect(dto!.single).toBeInstanceOf(Item);
    expect(dto!.items[1].flag).toBeNull();
  });

  it('leaves everything doubtful to the full path', () => {
    expect(acceptIfValid(Holder, { items: [{ name: 'ABC' }] })).toBeUndefined(); // a failed constraint
    expect(acceptIfValid(Holder, { items: [], other: 1 })).toBeUndefined(); // an unknown key
    expect(acceptIfValid(Holder, { items: [{ name: 'a', extra: 1 }] })).toBeUndefined(); // an unknown nested key
    expect(acceptIfValid(Holder, { items: ['a'] })).toBeUndefined(); // a nested value that is not an object
    expect(acceptIfValid(Holder, { items: [], tags: ['a'] })).toBeUndefined(); // ValidateIf: when_tagged now required
    expect(acceptIfValid(Holder, [])).toBeUndefined();
  });

  it('agrees with class-transformer + class-validator on every variant of the test classes', () => {
    const { accepted, rejected } = agree(Holder, { items: [{ name: 'abc', flag: true }], single: { name: 'e' }, tags: ['ab', 'c'], when_tagged: 'y' });
    expect(accepted).toBeGreaterThan(5);
    expect(rejected).toBeGreaterThan(50);
  });

  it('agrees on every variant of a full generic attestation, trail and artifact body', () => {
    const git = { sha1: 'ae08fc6a5c963ae8dfaa0c27d8e5de9980d433b6', branch: 'main', author: 'A <a@b.c>', timestamp: 1700000000.5, parents: ['p1'], message: 'm', url: 'https://g/c' };
    const generic = agree(GenericAttestationRequestDto, {
      attestation_name: 'unit-test',
      is_compliant: true,
      artifact_fingerprint: 'a'.repeat(64),
      target_artifacts: ['web', 'db'],
      description: 'd',
      origin_url: 'https://ci/1',
      external_urls: { logs: 'https://l', report: { href: 'https://r', fingerprint: 'b'.repeat(64) } },
      annotations: { key: 'value' },
      user_data: { any: ['thing', 1] },
      git_commit_info: git,
    });
    expect(generic.accepted).toBeGreaterThan(20);
    expect(generic.rejected).toBeGreaterThan(100);
    expect(agree(GitCommitInfoDto, git).accepted).toBeGreaterThan(10);
    agree(BeginTrailDataDto, { name: 'trail-1', description: 'd', git_commit_info: git, user_data: { a: 1 }, origin_url: 'https://o', external_urls: { a: 'https://a' } });
    agree(ReportArtifactRequestDto, { fingerprint: 'c'.repeat(64), filename: 'app.tar', trail_name: 't1', template_reference_name: 'web', git_commit_info: git, annotations: { a: 'b' } });
  });

  it('still works for classes it does not model (here: a nested class with @Transform), through the full path', () => {
    // repo_info's class has a @Transform: the fast path declines, validateDto then runs the full path.
    const body = { attestation_name: 'x', is_compliant: false, repo_info: { name: 'r', url: 'https://r', namespace_path: ['a', 'b'] } };
    expect(acceptIfValid(GenericAttestationRequestDto, body)).toBeUndefined();
    const dto = validateDto(GenericAttestationRequestDto, body);
    expect(dto.repo_info!.namespace_path).toBe('a/b');
  });

  it('keeps free-form data exactly as sent on both paths, keys like "constructor" and "__proto__" included', () => {
    const userData = JSON.parse('{"constructor": {"a": 1}, "toString": 1, "__proto__": {"x": 1}, "list": [{"valueOf": "v"}]}');
    const annotations = JSON.parse('{"constructor": "x", "hasOwnProperty": "y"}');
    const fast = validateDto(GenericAttestationRequestDto, { attestation_name: 'x', is_compliant: true, user_data: userData, annotations });
    // repo_info sends the same body down the full path
    const full = validateDto(GenericAttestationRequestDto, { attestation_name: 'x', is_compliant: true, user_data: userData, annotations, repo_info: { name: 'r', url: 'u' } });
    for (const dto of [fast, full]) {
      expect(JSON.stringify(dto.user_data)).toBe('{"constructor":{"a":1},"toString":1,"__proto__":{"x":1},"list":[{"valueOf":"v"}]}');
      expect(JSON.stringify(dto.annotations)).toBe('{"constructor":"x","hasOwnProperty":"y"}');
      expect(Object.getPrototypeOf(dto.user_data)).toBe(Object.prototype);
    }
  });
});
