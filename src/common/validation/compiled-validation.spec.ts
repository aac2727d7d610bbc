import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsArray,
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
  ValidationTypes,
} from 'class-validator';
import { ValidationError } from '../errors/app-error';
import { transformerMetadata } from './class-transformer-metadata';
import { acceptIfValid, CompiledValidation, compiledValidationClasses, describePlan } from './compiled-validation';
import { NAME_RULES, NameKind } from './names';
import { validateDto, validateFully } from './strict-validation.pipe';

type Cls = new () => object;
type Plain = Record<string, unknown>;

/*
 * The agreement spec: every class marked @CompiledValidation() is checked here, found through the registry the
 * decorator fills. Loading every DTO file of the service fills it, so marking a new DTO adds it to this spec
 * with nothing else to change. For each class, a valid body and hundreds of variants of it are generated from
 * its class-validator metadata, and the compiled path must agree with class-transformer + class-validator on
 * every one: what it accepts, the full path accepts and builds identically; what the full path rejects, it
 * declines; what it declines although valid is explained by its plan (a nested class it cannot model).
 */

const SRC = path.resolve(__dirname, '..', '..');

/** Every `*.dto.ts` under src/, and the shared evidence DTOs. */
function dtoFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...dtoFiles(file));
    else if (entry.name.endsWith('.dto.ts') && !entry.name.endsWith('.spec.ts')) out.push(file);
  }
  return out.sort();
}

const dtoClasses = new Set<Function>();
for (const file of dtoFiles()) {
  for (const value of Object.values(require(file) as Record<string, unknown>)) if (typeof value === 'function') dtoClasses.add(value);
}

// Classes of this spec (they are marked too, so the registry holds them beside the DTOs).
class Item {
  @IsString() @Matches(/^[a-z]+$/) name: string;
  @IsOptional() @IsBoolean() flag?: boolean | null;
}
@CompiledValidation()
class Holder {
  @IsArray() @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => Item) items: Item[];
  @IsOptional() @IsObject() @ValidateNested() @Type(() => Item) single?: Item | null;
  @IsOptional() @IsString({ each: true }) @MaxLength(3, { each: true }) tags?: string[] | null;
  @ValidateIf((o: Holder) => o.tags !== undefined) @IsString() when_tagged?: string;
}
class Unmarked {
  @IsString() name: string;
}

const SPEC_CLASSES = new Set<Function>([Holder]);
const marked = compiledValidationClasses().filter((cls) => !SPEC_CLASSES.has(cls));

// ---- what the decorators say -------------------------------------------------------------------------------

interface Rule {
  name: string;
  constraints: unknown[];
  each: boolean;
}
interface Property {
  name: string;
  rules: Rule[];
  nested?: Cls;
  nestedEach: boolean;
}

function propertiesOf(cls: Cls): Property[] {
  const storage = getMetadataStorage();
  const byName = new Map<string, Property>();
  for (const m of storage.getTargetValidationMetadatas(cls, undefined as unknown as string, false, false, undefined)) {
    const property = byName.get(m.propertyName) ?? { name: m.propertyName, rules: [], nestedEach: false };
    byName.set(m.propertyName, property);
    if (m.type === ValidationTypes.NESTED_VALIDATION) {
      const type = transformerMetadata().typeOf(cls, m.propertyName)?.typeFunction();
      if (typeof type === 'function' && type !== Object) property.nested = type as Cls;
      property.nestedEach = m.each === true;
    } else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
      const name = storage.getTargetValidatorConstraints(m.constraintCls)[0]?.name ?? m.name ?? 'custom';
      property.rules.push({ name, constraints: m.constraints ?? [], each: m.each === true });
    }
  }
  return [...byName.values()];
}

/** The full path's verdict, and its instance or its error keys. */
function full(cls: Cls, value: unknown): { valid: true; instance: object } | { valid: false; errors: string[] } {
  try {
    return { valid: true, instance: validateFully(cls, value as Plain) };
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return { valid: false, errors: Object.keys((error as ValidationError).errors ?? {}) };
  }
}

function propertyAccepted(cls: Cls, object: Plain, property: string): boolean {
  const verdict = full(cls, object);
  return verdict.valid || !verdict.errors.some((key) => key === property || key.startsWith(`${property}.`) || key.startsWith(`${property}[`));
}

const STRINGS = ['unit-test', 'a', 'a'.repeat(64), 'a'.repeat(40), 'https://ci.example/1', 'ann@acme.example', 'main'];
const OBJECTS: Plain[] = [
  { logs: 'https://l', report: { href: 'https://r', fingerprint: 'b'.repeat(64) } },
  { key: 'value' },
  { any: ['thing', 1], nested: { deep: true } },
];

/** Candidate values for a property, richest first; the sample takes the first one the full path accepts. */
function candidatesFor(property: Property, depth: number): unknown[] {
  const out: unknown[] = [];
  if (property.nested && depth < 3) {
    const nested = sampleOf(property.nested, depth + 1);
    out.push(property.nestedEach ? [nested, nested] : nested);
  }
  for (const rule of property.rules) if (rule.name === 'isIn') out.push(...(rule.constraints[0] as unknown[]));
  out.push(...STRINGS, ['web', 'db'], ...OBJECTS, 1700000000.5, 1, true, false, [], {}, null);
  return out;
}

const samples = new Map<Cls, Plain>();
/** A deep copy made in this realm (structuredClone's objects have another realm's Object.prototype under jest). */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** A valid body, every property filled with the richest value the full path accepts for it. */
function sampleOf(cls: Cls, depth = 0): Plain {
  const known = samples.get(cls);
  if (known) return copy(known);
  const sample: Plain = {};
  for (const property of propertiesOf(cls)) {
    const value = candidatesFor(property, depth).find((candidate) => propertyAccepted(cls, { ...sample, [property.name]: candidate }, property.name));
    if (value !== undefined) sample[property.name] = value;
  }
  samples.set(cls, sample);
  return copy(sample);
}

// ---- variants -------------------------------------------------------------------------------------------

const ODD_VALUES: unknown[] = [null, 0, -1, 1.5, 1e21, true, false, '', 'x', 'UPPER', 'a'.repeat(300), [], ['a'], [1], [null], [['a']], {}, { a: 1 }, { href: 'h' }];

/** Keys that class-transformer's own copy of an object loses or chokes on. */
const RESERVED_KEYS = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

function stringMutations(s: string): string[] {
  return ['', ' ', ` ${s}`, `${s} `, `-${s}`, `.${s}`, `_${s}`, `~${s}`, `${s}.`, `${s},`, `${s}~`, `${s}/`, `${s}\n`, `${s}é`, s.toUpperCase(), s.slice(1), s + s, `${s}${s.at(-1) ?? 'a'}`];
}

/** Strings of exactly `length` characters that keep the valid value's shape as far as possible. */
function ofLength(valid: unknown, length: number): string {
  const s = typeof valid === 'string' && valid.length ? valid : 'a';
  return length <= s.length ? s.slice(0, length) : s + (s.at(-1) ?? 'a').repeat(length - s.length);
}

/** Replacement values for one property, from its rules: boundaries, pattern breakers, wrong types, members. */
function valueVariants(property: Property, valid: unknown): unknown[] {
  const out: unknown[] = [...ODD_VALUES];
  const validItem = Array.isArray(valid) ? valid[0] : valid;
  const strings: string[] = [];
  for (const rule of property.rules) {
    const [first] = rule.constraints;
    switch (rule.name) {
      case 'maxLength':
        strings.push(ofLength(validItem, first as number), ofLength(validItem, (first as number) + 1));
        break;
      case 'minLength':
        strings.push(ofLength(validItem, first as number), ofLength(validItem, Math.max(0, (first as number) - 1)));
        break;
      case 'isIn':
        out.push(...(first as unknown[]), 'other', String((first as unknown[])[0]).toUpperCase());
        break;
      case 'isNumber':
      case 'isInt':
      case 'min':
      case 'max':
        out.push(0, -0, 1, -1, 0.5, 2 ** 53 + 2, typeof first === 'number' ? first : 0, typeof first === 'number' ? first + 1 : 1, '1');
        break;
      case 'isBoolean':
        out.push('true', 0, 1);
        break;
      case 'isEmail':
        strings.push('a@b', 'a@b.co', ' a@b.co', 'a@@b.co');
        break;
      default:
        if (rule.name in NAME_RULE_NAMES) {
          const kind = NAME_RULE_NAMES[rule.name];
          const max = (NAME_RULES[kind] as { maxLength?: number }).maxLength;
          if (max !== undefined) strings.push(ofLength(validItem, max), ofLength(validItem, max + 1));
        }
    }
  }
  if (typeof validItem === 'string') strings.push(...stringMutations(validItem));
  const each = property.rules.some((rule) => rule.each) || Array.isArray(valid);
  for (const s of strings) out.push(each ? [s] : s);
  if (each) {
    for (const s of strings) out.push([validItem, s]);
    out.push([validItem, validItem], [[validItem]], [validItem, null], [validItem, 1]);
  }
  if (valid !== null && valid !== undefined) out.push([valid], { value: valid });
  return out;
}

const NAME_RULE_NAMES: Record<string, NameKind> = Object.fromEntries(
  (Object.keys(NAME_RULES) as NameKind[]).map((kind) => [`is${kind.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}Name`, kind]),
);

/** The sample, and the sample changed in one place at a time, nested classes recursively. */
function variantsOf(cls: Cls, sample: Plain, depth = 0): Plain[] {
  const out: Plain[] = [sample, {}];
  const properties = propertiesOf(cls);
  // Only what is required, and every property null.
  const required = { ...sample };
  for (const property of properties) {
    const { [property.name]: _dropped, ...rest } = required;
    if (full(cls, rest).valid) delete required[property.name];
  }
  out.push(required, Object.fromEntries(properties.map((p) => [p.name, null])));
  for (const property of properties) {
    const valid = sample[property.name];
    const { [property.name]: _removed, ...rest } = sample;
    out.push(rest);
    for (const value of valueVariants(property, valid)) out.push({ ...sample, [property.name]: value });
    if (property.nested && depth < 2 && valid !== undefined && valid !== null) {
      const nestedSample = (Array.isArray(valid) ? valid[0] : valid) as Plain;
      for (const nested of variantsOf(property.nested, nestedSample, depth + 1).slice(1)) {
        out.push({ ...sample, [property.name]: property.nestedEach ? [nestedSample, nested] : nested });
        if (property.nestedEach) out.push({ ...sample, [property.name]: [nested] });
      }
      out.push({ ...sample, [property.name]: property.nestedEach ? nestedSample : [nestedSample] });
    }
  }
  out.push({ ...sample, unknown_field: 1 }, { ...sample, unknown_field: { nested: 1 } });
  const text = JSON.stringify(sample).slice(1);
  const join = (key: string, value: string) => JSON.parse(`{"${key}": ${value}${text === '}' ? '}' : `, ${text}`}`) as Plain;
  for (const key of RESERVED_KEYS) out.push(join(key, '{"x": 1}'), join(key, '"x"'));
  return out;
}

// ---- agreement ------------------------------------------------------------------------------------------

/** An instance as data, nested class instances named, so two builds compare by value and by class. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    const fields = Object.fromEntries(Object.keys(value).map((key) => [key, shape((value as Plain)[key])]));
    return proto === Object.prototype || proto === null ? fields : { [`<${proto.constructor.name}>`]: fields };
  }
  return value;
}

function agree(cls: Cls, candidates: Plain[]): { accepted: number; declinedValid: number; rejected: number } {
  const plan = describePlan(cls);
  if (!plan.compiled) throw new Error(`${cls.name} is marked @CompiledValidation() but the fast path cannot compile it`);
  const seen = new Set<string>();
  const counts = { accepted: 0, declinedValid: 0, rejected: 0 };
  for (const candidate of candidates) {
    const text = JSON.stringify(candidate);
    if (seen.has(text)) continue;
    seen.add(text);
    const fast = acceptIfValid(cls, JSON.parse(text));
    const slow = full(cls, JSON.parse(text));
    if (fast) {
      counts.accepted++;
      // Never accepts what class-validator rejects, and builds the same thing.
      expect({ candidate, valid: slow.valid }).toEqual({ candidate, valid: true });
      expect({ candidate, built: shape(fast) }).toEqual({ candidate, built: shape((slow as { instance: object }).instance) });
    } else if (slow.valid) {
      counts.declinedValid++;
      // Valid but declined: only where the plan says it hands a property to the full path.
      if (!plan.declines.some((name) => candidate[name] !== undefined && candidate[name] !== null)) {
        throw new Error(`the fast path declined a valid body its plan does not explain: ${text}`);
      }
    } else {
      counts.rejected++;
    }
  }
  return counts;
}

describe('DTO conventions the validation relies on', () => {
  it('every @ValidateNested property of every DTO has a @Type class and @IsObject (each item, for arrays)', () => {
    // class-validator alone accepts an array where one nested object is expected (and arrays of arrays):
    // @IsObject is what rejects them.
    const problems: string[] = [];
    const seen = new Set<Function>();
    const visit = (cls: Cls) => {
      if (seen.has(cls)) return;
      seen.add(cls);
      for (const property of propertiesOf(cls)) {
        const nested = getMetadataStorage()
          .getTargetValidationMetadatas(cls, undefined as unknown as string, false, false, undefined)
          .find((m) => m.propertyName === property.name && m.type === ValidationTypes.NESTED_VALIDATION);
        if (!nested) continue;
        if (!property.nested) problems.push(`${cls.name}.${property.name}: @ValidateNested without a @Type class`);
        else visit(property.nested);
        if (!property.rules.some((rule) => rule.name === 'isObject' && rule.each === (nested.each === true))) {
          problems.push(`${cls.name}.${property.name}: @ValidateNested needs @IsObject(${nested.each ? '{ each: true }' : ''})`);
        }
      }
    };
    for (const cls of dtoClasses) visit(cls as Cls);
    expect(problems).toEqual([]);
  });
});

describe('compiled validation: opt-in', () => {
  it('finds the marked DTOs by loading every *.dto.ts file (the ingest route needs GenericAttestationRequestDto)', () => {
    expect(dtoFiles().length).toBeGreaterThan(5);
    expect(marked.map((cls) => cls.name)).toContain('GenericAttestationRequestDto');
    // A marked class outside the DTO files would be checked only if something else loaded it.
    for (const cls of marked) expect({ cls: cls.name, inDtoFile: dtoClasses.has(cls) }).toEqual({ cls: cls.name, inDtoFile: true });
  });

  it('never takes the fast path for an unmarked class, which still validates through the full path', () => {
    expect(acceptIfValid(Unmarked, { name: 'x' })).toBeUndefined();
    expect(validateDto(Unmarked, { name: 'x' })).toBeInstanceOf(Unmarked);
    expect(() => validateDto(Unmarked, { name: 1 })).toThrow(ValidationError);
  });

  it('accepts valid input of a marked class as class instances, nested ones included', () => {
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
});

describe.each([Holder, ...marked].map((cls) => [cls.name, cls] as const))('compiled validation agrees with class-validator: %s', (_, cls) => {
  /** The generated body without the properties the plan hands to the full path (the fast path's own ground). */
  const modelledSample = (): Plain => {
    const plan = describePlan(cls);
    const declines = plan.compiled ? plan.declines : [];
    return Object.fromEntries(Object.entries(sampleOf(cls)).filter(([key]) => !declines.includes(key)));
  };

  it('accepts the generated valid body on both paths', () => {
    expect(describePlan(cls).compiled).toBe(true);
    expect(full(cls, sampleOf(cls)).valid).toBe(true);
    expect(acceptIfValid(cls, modelledSample())).toBeInstanceOf(cls);
  });

  it('agrees on every variant generated from its decorators', () => {
    const modelled = agree(cls, variantsOf(cls, modelledSample()));
    expect(modelled.accepted).toBeGreaterThan(5);
    expect(modelled.rejected).toBeGreaterThan(50);
    // The same with the properties the fast path hands over: it must decline or agree there too.
    const whole = agree(cls, variantsOf(cls, sampleOf(cls)));
    expect(whole.rejected).toBeGreaterThan(50);
  });
});

describe('the full path behind the fast one', () => {
  const { GenericAttestationRequestDto } = require('../../modules/attestations/types/generic/generic-attestation.request.dto');

  it('still works for classes it does not model (here: a nested class with @Transform)', () => {
    // repo_info's class has a @Transform: the fast path declines, validateDto then runs the full path.
    const body = { attestation_name: 'x', is_compliant: false, repo_info: { name: 'r', url: 'https://r', namespace_path: ['a', 'b'] } };
    expect(acceptIfValid(GenericAttestationRequestDto, body)).toBeUndefined();
    const dto = validateDto(GenericAttestationRequestDto, body) as { repo_info: { namespace_path: string } };
    expect(dto.repo_info.namespace_path).toBe('a/b');
  });

  it('keeps free-form data exactly as sent on both paths, keys like "constructor" and "__proto__" included', () => {
    const userData = JSON.parse('{"constructor": {"a": 1}, "toString": 1, "__proto__": {"x": 1}, "list": [{"valueOf": "v"}]}');
    const annotations = JSON.parse('{"constructor": "x", "hasOwnProperty": "y"}');
    const fast = validateDto(GenericAttestationRequestDto, { attestation_name: 'x', is_compliant: true, user_data: userData, annotations });
    // repo_info sends the same body down the full path
    const slow = validateDto(GenericAttestationRequestDto, { attestation_name: 'x', is_compliant: true, user_data: userData, annotations, repo_info: { name: 'r', url: 'u' } });
    for (const dto of [fast, slow] as Array<{ user_data: object; annotations: object }>) {
      expect(JSON.stringify(dto.user_data)).toBe('{"constructor":{"a":1},"toString":1,"__proto__":{"x":1},"list":[{"valueOf":"v"}]}');
      expect(JSON.stringify(dto.annotations)).toBe('{"constructor":"x","hasOwnProperty":"y"}');
      expect(Object.getPrototypeOf(dto.user_data)).toBe(Object.prototype);
    }
  });
});
