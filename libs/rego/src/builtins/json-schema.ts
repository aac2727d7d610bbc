/**
 * json.verify_schema / json.match_schema: a JSON Schema (draft 4/6/7 keywords) validator that reports errors the
 * way OPA's gojsonschema does (same types, fields, descriptions and order), with compiled schemas cached.
 */
import { Value, PlainObject, RegoSet, isObject, objGet, objEntries, objKeys, makeObject, compareStrings, typeName } from '../value';
import * as N from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinError } from './errors';
import { parseJSON, marshalJSON } from './json-text';
import { compileRegex } from './regex';
import { formatFloat } from './sprintf';
import { runeCount } from './utf8';
import { checkFormat } from './json-schema-formats';

const JSON_TYPES = ['array', 'boolean', 'integer', 'number', 'null', 'object', 'string'];

class SchemaError extends Error {}

interface Sub {
  pass?: boolean; // boolean schema
  ref?: string;
  refSchema?: Sub;
  types: string[];
  properties: Array<[string, Sub]>;
  propertyMap: Map<string, Sub>;
  patternProperties: Array<[string, Sub]>;
  additionalProperties?: boolean | Sub;
  required: string[];
  dependencies: Map<string, string[] | Sub>;
  propertyNames?: Sub;
  minProperties?: number;
  maxProperties?: number;
  items?: Sub; // single schema
  itemsList?: Sub[]; // positional
  additionalItems?: boolean | Sub;
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  contains?: Sub;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  multipleOf?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  constText?: string;
  enumTexts?: string[];
  enumSet?: Set<string>;
  anyOf: Sub[];
  oneOf: Sub[];
  allOf: Sub[];
  not?: Sub;
  if?: Sub;
  then?: Sub;
  else?: Sub;
}

// ---------------------------------------------------------------------------------------------------------------
// Compilation

/** Canonical JSON text with numbers normalised, as gojsonschema compares const/enum/uniqueItems. */
function canonText(v: Value): string {
  return marshalJSON(v, undefined, '', false);
}

function num(v: Value | undefined, key: string): number | undefined {
  if (v === undefined) return undefined;
  if (!N.isNumOrBig(v)) throw new SchemaError(`Invalid type. Expected: number, given: ${key}`);
  return N.toFloat(v);
}

function nonNegInt(v: Value | undefined, key: string): number | undefined {
  if (v === undefined) return undefined;
  if (!N.isNumOrBig(v) || !N.isInt(v)) throw new SchemaError(`${key} must be of an integer`);
  const n = N.toFloat(v);
  if (n < 0) throw new SchemaError(`${key} must be greater than or equal to 0`);
  return n;
}

/** Base URI of a schema without `$id` (relative references from it resolve to nothing that exists). */
const ROOT_BASE = 'rego-schema://root/root.json';

/** `ref` resolved against `base` (RFC 3986, as gojsonschema's reference pool does), or undefined when malformed. */
function resolveUri(base: string, ref: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

function withoutEmptyFragment(u: string): string {
  return u.endsWith('#') ? u.slice(0, -1) : u;
}

/** Keys whose values are data, not schemas: an `$id` inside them names nothing. */
const DATA_KEYS = new Set(['enum', 'const', 'examples', 'default']);

class Compiler {
  private pending: Array<[Sub, string, string]> = [];
  /** absolute URI (a document, or a document plus a plain-name fragment) -> the schema with that `$id` */
  private ids = new Map<string, Value>();
  /** schema object -> its base URI (the nearest enclosing `$id`, resolved against the one above it) */
  private bases = new Map<Value, string>();
  constructor(private root: Value) {
    this.collectIds(root, ROOT_BASE);
  }

  private collectIds(v: Value, base: string): void {
    if (Array.isArray(v)) v.forEach((x) => this.collectIds(x, base));
    else if (isObject(v)) {
      let b = base;
      const id = objGet(v, '$id') ?? objGet(v, 'id');
      if (typeof id === 'string') {
        const abs = resolveUri(base, id);
        if (abs !== undefined) {
          b = withoutEmptyFragment(abs);
          this.ids.set(b, v);
        }
      }
      this.bases.set(v, b);
      for (const [k, x] of objEntries(v)) if (!(typeof k === 'string' && DATA_KEYS.has(k))) this.collectIds(x as Value, b);
    }
  }

  private cache = new Map<Value, Sub>();

  compile(): Sub {
    const s = this.sub(this.root);
    // Resolve $refs after all schemas exist so recursive references work.
    for (const [sub, ref, base] of this.pending) sub.refSchema = this.resolve(ref, base);
    return s;
  }

  /** A `$ref` against the base URI of the schema holding it: a document known by its `$id`, then a JSON pointer. */
  private resolve(ref: string, base: string): Sub {
    const abs = resolveUri(base, ref);
    if (abs === undefined) throw new SchemaError(`Reference ${ref} could not be resolved: invalid reference`);
    const hash = abs.indexOf('#');
    const docUri = hash < 0 ? abs : abs.slice(0, hash);
    const frag = hash < 0 ? '' : abs.slice(hash + 1);
    // a location-independent identifier (`"$id": "#foo"`)
    if (frag !== '' && !frag.startsWith('/') && this.ids.has(abs)) return this.sub(this.ids.get(abs) as Value);
    const doc = this.ids.get(docUri) ?? (docUri === ROOT_BASE ? this.root : undefined);
    if (doc === undefined) throw new SchemaError(`Reference ${ref} could not be resolved: remote references are not supported`);
    let cur: Value | undefined = doc;
    if (frag !== '') {
      if (!frag.startsWith('/')) throw new SchemaError(`Reference ${ref} must be canonical`);
      for (const raw of frag.slice(1).split('/')) {
        let seg = raw;
        try {
          seg = decodeURIComponent(raw);
        } catch {
          // keep it as written
        }
        seg = seg.replace(/~1/g, '/').replace(/~0/g, '~');
        if (Array.isArray(cur)) cur = cur[Number(seg)];
        else if (isObject(cur)) cur = objGet(cur, seg);
        else cur = undefined;
        if (cur === undefined) throw new SchemaError(`Object has no key '${seg}'`);
      }
    }
    return this.sub(cur as Value);
  }

  sub(v: Value): Sub {
    const hit = this.cache.get(v);
    if (hit && typeof v === 'object' && v !== null) return hit;
    const s: Sub = {
      types: [],
      properties: [],
      propertyMap: new Map(),
      patternProperties: [],
      required: [],
      dependencies: new Map(),
      uniqueItems: false,
      anyOf: [],
      oneOf: [],
      allOf: [],
    };
    if (typeof v === 'boolean') {
      s.pass = v;
      return s;
    }
    if (!isObject(v)) throw new SchemaError(`Invalid type. Expected: object, given: ${typeName(v)}`);
    if (typeof v === 'object' && v !== null) this.cache.set(v, s);
    const o = v as PlainObject;
    const get = (k: string) => objGet(o, k);

    // Definitions are checked even when nothing references them, as gojsonschema parses them eagerly.
    const defs = get('definitions');
    if (defs !== undefined) {
      if (!isObject(defs)) throw new SchemaError('definitions must be of an object');
      for (const [, d] of objEntries(defs)) this.sub(d as Value);
    }
    const ref = get('$ref');
    if (ref !== undefined) {
      if (typeof ref !== 'string') throw new SchemaError('$ref must be of type string');
      s.ref = ref;
      this.pending.push([s, ref, this.bases.get(v) ?? ROOT_BASE]);
    }
    const t = get('type');
    if (t !== undefined) {
      const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t : undefined;
      if (!list) throw new SchemaError('Invalid type. Expected: string/array of strings, given: type');
      for (const x of list) {
        if (typeof x !== 'string') throw new SchemaError('type items must be string');
        if (!JSON_TYPES.includes(x)) {
          throw new SchemaError(`has a primitive type that is NOT VALID -- given: /${x}/ Expected valid values are:[${JSON_TYPES.join(' ')}]`);
        }
        if (s.types.includes(x)) throw new SchemaError(`${x} type is duplicated`);
        s.types.push(x);
      }
    }
    const props = get('properties');
    if (props !== undefined) {
      if (!isObject(props)) throw new SchemaError('properties must be of an object');
      for (const k of (objKeys(props) as string[]).sort(compareStrings)) {
        const ps = this.sub(objGet(props, k) as Value);
        s.properties.push([k, ps]);
        s.propertyMap.set(k, ps);
      }
    }
    const pprops = get('patternProperties');
    if (pprops !== undefined) {
      if (!isObject(pprops)) throw new SchemaError('patternProperties must be of an object');
      for (const [k, x] of objEntries(pprops)) {
        try {
          compileRegex(k as string);
        } catch {
          throw new SchemaError(`Invalid regex pattern '${k}'`);
        }
        s.patternProperties.push([k as string, this.sub(x as Value)]);
      }
    }
    const ap = get('additionalProperties');
    if (ap !== undefined) {
      if (typeof ap === 'boolean') s.additionalProperties = ap;
      else if (isObject(ap)) s.additionalProperties = this.sub(ap);
      else throw new SchemaError('additionalProperties must be of a boolean/valid schema');
    }
    const req = get('required');
    if (req !== undefined) {
      if (!Array.isArray(req)) throw new SchemaError('required must be of an array');
      for (const r of req) {
        if (typeof r !== 'string') throw new SchemaError('required items must be string');
        if (s.required.includes(r)) throw new SchemaError('required items must be unique');
        s.required.push(r);
      }
    }
    const deps = get('dependencies');
    if (deps !== undefined) {
      if (!isObject(deps)) throw new SchemaError('dependencies must be of an object');
      for (const [k, x] of objEntries(deps)) {
        if (Array.isArray(x)) {
          if (!x.every((e) => typeof e === 'string')) throw new SchemaError('dependency items must be string');
          s.dependencies.set(k as string, x as string[]);
        } else s.dependencies.set(k as string, this.sub(x as Value));
      }
    }
    const pn = get('propertyNames');
    if (pn !== undefined) s.propertyNames = this.sub(pn);
    s.minProperties = nonNegInt(get('minProperties'), 'minProperties');
    s.maxProperties = nonNegInt(get('maxProperties'), 'maxProperties');
    const items = get('items');
    if (items !== undefined) {
      if (Array.isArray(items)) s.itemsList = items.map((x) => this.sub(x));
      else s.items = this.sub(items);
    }
    const ai = get('additionalItems');
    if (ai !== undefined) {
      if (typeof ai === 'boolean') s.additionalItems = ai;
      else s.additionalItems = this.sub(ai);
    }
    s.minItems = nonNegInt(get('minItems'), 'minItems');
    s.maxItems = nonNegInt(get('maxItems'), 'maxItems');
    const ui = get('uniqueItems');
    if (ui !== undefined) {
      if (typeof ui !== 'boolean') throw new SchemaError('uniqueItems must be of a boolean');
      s.uniqueItems = ui;
    }
    const contains = get('contains');
    if (contains !== undefined) s.contains = this.sub(contains);
    s.minLength = nonNegInt(get('minLength'), 'minLength');
    s.maxLength = nonNegInt(get('maxLength'), 'maxLength');
    const pattern = get('pattern');
    if (pattern !== undefined) {
      if (typeof pattern !== 'string') throw new SchemaError('pattern must be of a string');
      try {
        compileRegex(pattern);
      } catch {
        throw new SchemaError(`Invalid regex pattern '${pattern}'`);
      }
      s.pattern = pattern;
    }
    const format = get('format');
    if (format !== undefined) {
      if (typeof format !== 'string') throw new SchemaError('format must be of a string');
      s.format = format;
    }
    const mo = num(get('multipleOf'), 'multipleOf');
    if (mo !== undefined && mo <= 0) throw new SchemaError('multipleOf must be strictly greater than 0');
    s.multipleOf = mo;
    s.minimum = num(get('minimum'), 'minimum');
    s.maximum = num(get('maximum'), 'maximum');
    // draft 4 booleans modify minimum/maximum; draft 6+ numbers are bounds of their own
    const exMin = get('exclusiveMinimum');
    if (typeof exMin === 'boolean') {
      if (exMin) {
        if (s.minimum === undefined) throw new SchemaError('exclusiveMinimum cannot be used without minimum');
        s.exclusiveMinimum = s.minimum;
        s.minimum = undefined;
      }
    } else s.exclusiveMinimum = num(exMin, 'exclusiveMinimum');
    const exMax = get('exclusiveMaximum');
    if (typeof exMax === 'boolean') {
      if (exMax) {
        if (s.maximum === undefined) throw new SchemaError('exclusiveMaximum cannot be used without maximum');
        s.exclusiveMaximum = s.maximum;
        s.maximum = undefined;
      }
    } else s.exclusiveMaximum = num(exMax, 'exclusiveMaximum');
    const c = get('const');
    if (c !== undefined) s.constText = canonText(c);
    const e = get('enum');
    if (e !== undefined) {
      if (!Array.isArray(e)) throw new SchemaError('enum must be of an array');
      const texts = e.map(canonText);
      if (new Set(texts).size !== texts.length) throw new SchemaError('enum items must be unique');
      s.enumTexts = texts;
      s.enumSet = new Set(texts);
    }
    const list = (k: string): Sub[] => {
      const x = get(k);
      if (x === undefined) return [];
      if (!Array.isArray(x)) throw new SchemaError(`${k} must be of an array`);
      return x.map((y) => this.sub(y));
    };
    s.anyOf = list('anyOf');
    s.oneOf = list('oneOf');
    s.allOf = list('allOf');
    const not = get('not');
    if (not !== undefined) s.not = this.sub(not);
    const iff = get('if');
    if (iff !== undefined) {
      s.if = this.sub(iff);
      const th = get('then');
      if (th !== undefined) s.then = this.sub(th);
      const el = get('else');
      if (el !== undefined) s.else = this.sub(el);
    }
    return s;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

interface Err {
  type: string;
  field: string;
  desc: string;
}

/** Path of the value being validated, as a linked list so descending costs no copying. */
interface Ctx {
  parent?: Ctx;
  key: string;
}

const ROOT: Ctx | undefined = undefined;

function child(ctx: Ctx | undefined, key: string): Ctx {
  return { parent: ctx, key };
}

class Result {
  errors: Err[] = [];
  score = 0;
  add(type: string, ctx: Ctx | undefined, desc: string) {
    this.errors.push({ type, field: fieldOf(ctx), desc });
    this.score -= 2;
  }
  merge(o: Result) {
    for (const e of o.errors) this.errors.push(e);
    this.score += o.score;
  }
  get valid(): boolean {
    return this.errors.length === 0;
  }
}

function fieldOf(ctx: Ctx | undefined): string {
  // OPA's gojsonschema names the document root `(Root)` (ec-policies' tests, run on OPA, expect it)
  if (!ctx) return '(Root)';
  const parts: string[] = [];
  for (let c: Ctx | undefined = ctx; c; c = c.parent) parts.push(c.key);
  return parts.reverse().join('.');
}

/** big.Float's %v (Text 'g', 10 significant digits). */
function bigFloatText(n: number): string {
  return formatFloat(n, 'g', 10);
}

function typesText(t: string[]): string {
  return t.length > 1 ? `[${t.join(',')}]` : t[0];
}

function kindOf(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return N.isInt(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v) || v instanceof RegoSet) return 'array';
  return 'object';
}

function sub(s: Sub, v: Value, ctx: Ctx | undefined): Result {
  const r = new Result();
  validate(s, v, r, ctx);
  return r;
}

function validate(s: Sub, v: Value, r: Result, ctx: Ctx | undefined): void {
  if (s.pass !== undefined) {
    if (!s.pass) r.add('false', ctx, 'False always fails validation');
    return;
  }
  if (s.refSchema) {
    validate(s.refSchema, v, r, ctx);
    return;
  }
  const kind = kindOf(v);
  if (s.types.length) {
    const ok = s.types.includes(kind) || (kind === 'integer' && s.types.includes('number'));
    if (!ok) {
      r.add('invalid_type', ctx, `Invalid type. Expected: ${typesText(s.types)}, given: ${kind}`);
      return;
    }
  }
  validateSchema(s, v, r, ctx);
  if (kind === 'array') {
    const arr = Array.isArray(v) ? v : (v as RegoSet).sorted();
    validateArray(s, arr, r, ctx);
    validateCommon(s, v, r, ctx);
  } else if (kind === 'object') {
    validateObject(s, v as PlainObject, r, ctx);
    validateCommon(s, v, r, ctx);
    for (const [k, ps] of s.properties) {
      const x = objGet(v as PlainObject, k);
      if (x !== undefined) validate(ps, x, r, child(ctx, k));
    }
  } else {
    if (kind === 'integer' || kind === 'number') validateNumber(s, v as N.Num, r, ctx);
    validateCommon(s, v, r, ctx);
    if (kind === 'string') validateString(s, v as string, r, ctx);
  }
  r.score++;
}

function validateSchema(s: Sub, v: Value, r: Result, ctx: Ctx | undefined): void {
  if (s.anyOf.length) {
    let ok = false;
    let best: Result | undefined;
    for (const a of s.anyOf) {
      if (ok) break;
      const res = sub(a, v, ctx);
      ok = res.valid;
      if (!ok && (!best || res.score > best.score)) best = res;
    }
    if (!ok) {
      r.add('number_any_of', ctx, 'Must validate at least one schema (anyOf)');
      if (best) r.merge(best);
    }
  }
  if (s.oneOf.length) {
    let n = 0;
    let best: Result | undefined;
    for (const a of s.oneOf) {
      const res = sub(a, v, ctx);
      if (res.valid) n++;
      else if (n === 0 && (!best || res.score > best.score)) best = res;
    }
    if (n !== 1) {
      r.add('number_one_of', ctx, 'Must validate one and only one schema (oneOf)');
      if (n === 0 && best) r.merge(best);
    }
  }
  if (s.allOf.length) {
    let n = 0;
    for (const a of s.allOf) {
      const res = sub(a, v, ctx);
      if (res.valid) n++;
      r.merge(res);
    }
    if (n !== s.allOf.length) r.add('number_all_of', ctx, 'Must validate all the schemas (allOf)');
  }
  if (s.not && sub(s.not, v, ctx).valid) r.add('number_not', ctx, 'Must not validate the schema (not)');
  if (s.dependencies.size && isObject(v)) {
    for (const k of (objKeys(v) as string[]).sort(compareStrings)) {
      const d = s.dependencies.get(k);
      if (d === undefined) continue;
      if (Array.isArray(d)) {
        for (const need of d) if (objGet(v, need) === undefined) r.add('missing_dependency', ctx, `Has a dependency on ${need}`);
      } else validate(d, v, r, ctx);
    }
  }
  if (s.if) {
    const ifRes = sub(s.if, v, ctx);
    if (s.then && ifRes.valid) {
      const t = sub(s.then, v, ctx);
      if (!t.valid) {
        r.add('condition_then', ctx, 'Must validate "then" as "if" was valid');
        r.merge(t);
      }
    }
    if (s.else && !ifRes.valid) {
      const e = sub(s.else, v, ctx);
      if (!e.valid) {
        r.add('condition_else', ctx, 'Must validate "else" as "if" was not valid');
        r.merge(e);
      }
    }
  }
  r.score++;
}

function validateCommon(s: Sub, v: Value, r: Result, ctx: Ctx | undefined): void {
  if (s.constText !== undefined && canonText(v) !== s.constText) {
    r.add('const', ctx, `${fieldOf(ctx)} does not match: ${s.constText}`);
  }
  if (s.enumTexts !== undefined && !s.enumSet!.has(canonText(v))) {
    const allowed = s.enumTexts.length ? s.enumTexts.join(', ') : '(none)';
    r.add('enum', ctx, `${fieldOf(ctx)} must be one of the following: ${allowed}`);
  }
  if (s.format !== undefined && !checkFormat(s.format, v)) {
    r.add('format', ctx, `Does not match format '${s.format}'`);
  }
  r.score++;
}

function validateArray(s: Sub, arr: Value[], r: Result, ctx: Ctx | undefined): void {
  const n = arr.length;
  // Validating straight into r equals validating into a fresh result and merging it (same errors, same score).
  if (s.items) {
    for (let i = 0; i < n; i++) validate(s.items, arr[i], r, child(ctx, String(i)));
  } else if (s.itemsList && s.itemsList.length) {
    const m = s.itemsList.length;
    for (let i = 0; i < m && i < n; i++) validate(s.itemsList[i], arr[i], r, child(ctx, String(i)));
    if (m < n) {
      if (s.additionalItems === false) r.add('array_no_additional_items', ctx, 'No additional items allowed on array');
      else if (s.additionalItems && typeof s.additionalItems === 'object') {
        for (let i = m; i < n; i++) validate(s.additionalItems, arr[i], r, child(ctx, String(i)));
      }
    }
  }
  if (s.minItems !== undefined && n < s.minItems) r.add('array_min_items', ctx, `Array must have at least ${s.minItems} items`);
  if (s.maxItems !== undefined && n > s.maxItems) r.add('array_max_items', ctx, `Array must have at most ${s.maxItems} items`);
  if (s.uniqueItems) {
    const seen = new Map<string, number>();
    arr.forEach((x, j) => {
      const t = canonText(x);
      const i = seen.get(t);
      if (i !== undefined) r.add('unique', ctx, `array items[${i},${j}] must be unique`);
      seen.set(t, j);
    });
  }
  if (s.contains) {
    let ok = false;
    let best: Result | undefined;
    for (let i = 0; i < n; i++) {
      const res = sub(s.contains, arr[i], child(ctx, String(i)));
      if (res.valid) {
        ok = true;
        break;
      }
      if (!best || res.score > best.score) best = res;
    }
    if (!ok) {
      r.add('contains', ctx, 'At least one of the items must match');
      if (best) r.merge(best);
    }
  }
  r.score++;
}

function validateObject(s: Sub, o: PlainObject, r: Result, ctx: Ctx | undefined): void {
  const needKeys =
    s.minProperties !== undefined ||
    s.maxProperties !== undefined ||
    s.patternProperties.length > 0 ||
    s.additionalProperties !== undefined ||
    s.propertyNames !== undefined;
  const keys = needKeys ? (objKeys(o) as string[]).sort(compareStrings) : [];
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    r.add('array_min_properties', ctx, `Must have at least ${s.minProperties} properties`);
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    r.add('array_max_properties', ctx, `Must have at most ${s.maxProperties} properties`);
  }
  for (const req of s.required) {
    if (objGet(o, req) !== undefined) r.score++;
    else r.add('required', ctx, `${req} is required`);
  }
  if (s.patternProperties.length > 0 || s.additionalProperties !== undefined) {
    for (const k of keys) {
      const found = s.propertyMap.has(k);
      let pp = false;
      for (const [pat, ps] of s.patternProperties) {
        if (compileRegex(pat).test(k)) {
          pp = true;
          validate(ps, objGet(o, k) as Value, r, child(ctx, k));
        }
      }
      if (pp) r.score++;
      if (!found && !pp) {
        if (s.additionalProperties === false) r.add('additional_property_not_allowed', ctx, `Additional property ${k} is not allowed`);
        else if (s.additionalProperties && typeof s.additionalProperties === 'object') {
          validate(s.additionalProperties, objGet(o, k) as Value, r, child(ctx, k));
        }
      }
    }
  }
  if (s.propertyNames) {
    for (const k of keys) {
      const res = sub(s.propertyNames, k, ctx);
      if (!res.valid) {
        r.add('invalid_property_name', ctx, `Property name of "${k}" does not match`);
        r.merge(res);
      }
    }
  }
  r.score++;
}

function validateString(s: Sub, v: string, r: Result, ctx: Ctx | undefined): void {
  if (s.minLength !== undefined || s.maxLength !== undefined) {
    const len = runeCount(v);
    if (s.minLength !== undefined && len < s.minLength) r.add('string_gte', ctx, `String length must be greater than or equal to ${s.minLength}`);
    if (s.maxLength !== undefined && len > s.maxLength) r.add('string_lte', ctx, `String length must be less than or equal to ${s.maxLength}`);
  }
  if (s.pattern !== undefined && !compileRegex(s.pattern).test(v)) {
    r.add('pattern', ctx, `Does not match pattern '${s.pattern}'`);
  }
  r.score++;
}

function isMultiple(v: number, m: number): boolean {
  const q = v / m;
  if (Number.isInteger(q)) return true;
  // tolerate binary representation error for decimal multiples (gojsonschema uses exact rationals)
  return Math.abs(q - Math.round(q)) < 1e-9 * Math.max(1, Math.abs(q));
}

function validateNumber(s: Sub, n: N.Num, r: Result, ctx: Ctx | undefined): void {
  const x = N.toFloat(n);
  if (s.multipleOf !== undefined && !isMultiple(x, s.multipleOf)) r.add('multiple_of', ctx, `Must be a multiple of ${bigFloatText(s.multipleOf)}`);
  if (s.maximum !== undefined && x > s.maximum) r.add('number_lte', ctx, `Must be less than or equal to ${bigFloatText(s.maximum)}`);
  if (s.exclusiveMaximum !== undefined && x >= s.exclusiveMaximum) r.add('number_lt', ctx, `Must be less than ${bigFloatText(s.exclusiveMaximum)}`);
  if (s.minimum !== undefined && x < s.minimum) r.add('number_gte', ctx, `Must be greater than or equal to ${bigFloatText(s.minimum)}`);
  if (s.exclusiveMinimum !== undefined && x <= s.exclusiveMinimum) r.add('number_gt', ctx, `Must be greater than ${bigFloatText(s.exclusiveMinimum)}`);
  r.score++;
}

// ---------------------------------------------------------------------------------------------------------------
// Builtins

const byObject = new WeakMap<object, Sub>();
const byText = new Map<string, Sub>();

/**
 * Schema operand: JSON text or an object. Arrays are refused as OPA's loader refuses them (ec-policies' tests
 * expect `jsonschema: wrong type, expected string or object` from json.verify_schema(["x"])); JSON text holding an
 * array still reaches the schema parser.
 */
function schemaValue(v: Value): Value {
  if (typeof v === 'string') {
    try {
      return parseJSON(v);
    } catch {
      throw new SchemaError('invalid JSON string');
    }
  }
  if (isObject(v)) return v;
  throw new SchemaError('wrong type, expected string or object');
}

export function compileSchema(v: Value): Sub {
  if (typeof v === 'object' && v !== null) {
    const hit = byObject.get(v);
    if (hit) return hit;
  } else if (typeof v === 'string') {
    const hit = byText.get(v);
    if (hit) return hit;
  }
  const sv = schemaValue(v);
  if (Array.isArray(sv)) throw new SchemaError('Invalid type. Expected: object, given: array');
  const compiled = new Compiler(sv).compile();
  if (typeof v === 'object' && v !== null) byObject.set(v, compiled);
  else if (typeof v === 'string') {
    if (byText.size > 500) byText.delete(byText.keys().next().value as string);
    byText.set(v, compiled);
  }
  return compiled;
}

function documentValue(v: Value): Value {
  if (typeof v === 'string') {
    try {
      return parseJSON(v);
    } catch {
      throw new BuiltinError('invalid JSON string');
    }
  }
  if (isObject(v) || Array.isArray(v)) return v;
  throw new BuiltinError('wrong type, expected string or object');
}

export const JSON_SCHEMA: Record<string, BuiltinImpl> = {
  'json.verify_schema': ([v]) => {
    try {
      compileSchema(v);
      return [true, null];
    } catch (e) {
      if (e instanceof SchemaError || e instanceof BuiltinError) return [false, 'jsonschema: ' + e.message];
      throw e;
    }
  },
  'json.match_schema': ([doc, schema]) => {
    const d = documentValue(doc);
    let s: Sub;
    try {
      s = compileSchema(schema);
    } catch (e) {
      if (e instanceof SchemaError) throw new BuiltinError(e.message);
      throw e;
    }
    const r = new Result();
    validate(s, d, r, ROOT);
    const errors = r.errors.map((e) =>
      makeObject([
        ['error', `${e.field}: ${e.desc}`],
        ['type', e.type],
        ['field', e.field],
        ['desc', e.desc],
      ]),
    );
    return [r.valid, errors];
  },
};
