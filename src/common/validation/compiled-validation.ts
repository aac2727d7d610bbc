import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { transformerMetadata } from './class-transformer-metadata';
import { joinPath } from './flatten-validation-errors';
import { isPlainObject } from './plain-object';

/**
 * A fast path for accepting valid input, compiled once per DTO class from the class-validator and
 * class-transformer metadata its decorators registered. It calls the same constraint implementations as
 * class-validator, but walks a precomputed plan instead of re-reading the metadata on every call, and builds
 * the instance directly instead of through class-transformer.
 *
 * It is opt-in: only classes marked `@CompiledValidation()` take it (the request bodies of hot routes);
 * every other DTO always goes through class-transformer + class-validator. For a marked class it only ever
 * answers "valid, here is the instance" or "not sure". Anything it does not model (an unknown key, a failed
 * constraint, a class with @Transform/@Expose/@Exclude, groups, async constraints, a nested value that is not
 * a plain object) is "not sure", and the caller then runs the full path (class-transformer + class-validator,
 * with free-form values shielded: shieldFreeForm below), which also writes the error messages. So the fast
 * path can make valid input cheaper; it cannot change what is accepted or what is built: the agreement spec
 * (compiled-validation.spec.ts) takes every marked class and checks both paths on variants generated from its
 * decorators.
 */

const optedIn = new Set<Function>();

/**
 * Marks a DTO for the compiled fast path. Only for request bodies of hot routes; the classes nested in it
 * (@ValidateNested + @Type) are compiled as part of it. A subclass does not inherit the mark. Keep the class
 * in a `*.dto.ts` file: the agreement spec finds marked classes by loading those files.
 */
export function CompiledValidation(): ClassDecorator {
  return (target) => {
    optedIn.add(target);
  };
}

/** Every class marked @CompiledValidation() so far (in the order they were loaded). */
export function compiledValidationClasses(): Array<new () => object> {
  return [...optedIn] as Array<new () => object>;
}

type Check = (value: unknown, instance: object) => boolean;

interface PropertyPlan {
  name: string;
  /** From @IsOptional / @ValidateIf: when any is false, nothing else of this property is checked. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  checks: Check[];
  /** @ValidateNested: the class each nested value is built as (from @Type), or null when there is none. */
  nested: { cls: new () => object } | null | undefined;
}

interface ClassPlan {
  cls: new () => object;
  properties: PropertyPlan[];
  allowed: Set<string>;
}

const plans = new WeakMap<object, ClassPlan | null>();

/** The validated instance, or undefined when the full class-validator path must decide. */
export function acceptIfValid<T extends object>(cls: new () => T, value: unknown): T | undefined {
  if (!optedIn.has(cls) || !isPlainObject(value)) return undefined;
  const plan = planFor(cls);
  return plan ? (build(plan, value) as T | undefined) : undefined;
}

/**
 * For the agreement spec: whether the fast path can take this class at all, and which of its properties send
 * any non-null value to the full path (a nested class it cannot compile, such as one with @Transform).
 */
export function describePlan(cls: new () => object): { compiled: false } | { compiled: true; declines: string[] } {
  const plan = planFor(cls);
  if (!plan) return { compiled: false };
  const declines = (nested: PropertyPlan['nested'], seen: Set<object>): boolean => {
    if (nested === undefined) return false;
    if (nested === null) return true;
    const nestedPlan = planFor(nested.cls);
    if (!nestedPlan) return true;
    if (seen.has(nestedPlan)) return false;
    seen.add(nestedPlan);
    return nestedPlan.properties.some((property) => declines(property.nested, seen));
  };
  return { compiled: true, declines: plan.properties.filter((property) => declines(property.nested, new Set([plan]))).map((p) => p.name) };
}

function planFor(cls: new () => object): ClassPlan | null {
  let plan = plans.get(cls);
  if (plan === undefined) {
    try {
      plan = compile(cls);
    } catch {
      plan = null;
    }
    plans.set(cls, plan);
  }
  return plan;
}

function compile(cls: new () => object): ClassPlan | null {
  // Same arguments as class-validator's executor with no groups: (target, schema, always, strictGroups, groups).
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, undefined as unknown as string, false, false, undefined);
  if (!metadatas.length) return null;
  if (transformerMetadata().hasExposeOrExclude(cls)) return null;

  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const metadata of metadatas) {
    const list = byProperty.get(metadata.propertyName) ?? [];
    list.push(metadata);
    byProperty.set(metadata.propertyName, list);
  }
  const properties: PropertyPlan[] = [];
  for (const [name, list] of byProperty) {
    if (transformerMetadata().hasTransform(cls, name)) return null;
    const property: PropertyPlan = { name, conditions: [], checks: [], nested: undefined };
    for (const metadata of list) {
      switch (metadata.type) {
        case ValidationTypes.WHITELIST:
          break;
        case ValidationTypes.CONDITIONAL_VALIDATION:
          property.conditions.push(metadata.constraints[0]);
          break;
        case ValidationTypes.CUSTOM_VALIDATION: {
          const check = compileCustom(cls, metadata);
          if (!check) return null;
          property.checks.push(check);
          break;
        }
        case ValidationTypes.NESTED_VALIDATION: {
          const type = typeOf(cls, name);
          if (type.kind === 'opaque') return null;
          property.nested = type.kind === 'class' ? { cls: type.cls } : null;
          break;
        }
        default:
          return null; // isDefined, promiseValidation: not modelled
      }
    }
    if (property.nested === undefined && typeOf(cls, name).kind !== 'none') return null;
    properties.push(property);
  }
  const allowed = new Set(byProperty.keys());
  // Fields the constructor creates must be allowed too (class-validator's whitelist looks at the instance).
  if (Object.keys(new cls()).some((key) => !allowed.has(key))) return null;
  return { cls, properties, allowed };
}

function compileCustom(cls: new () => object, metadata: ValidationMetadata): Check | null {
  const constraints = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
  if (!constraints.length || constraints.some((c) => c.async)) return null;
  const validators = constraints.map((c) => c.instance);
  const each = metadata.each;
  return (value, instance) => {
    const args: ValidationArguments = {
      targetName: cls.name,
      property: metadata.propertyName,
      object: instance,
      value,
      constraints: metadata.constraints,
    };
    for (const validator of validators) {
      if (each && (value instanceof Set || value instanceof Map)) return false; // not from JSON: not modelled
      if (each && Array.isArray(value)) {
        for (const item of value) if (validator.validate(item, args) !== true) return false;
      } else if (validator.validate(value, args) !== true) {
        return false; // false, or a promise: not for the fast path
      }
    }
    return true;
  };
}

function build(plan: ClassPlan, value: Record<string, unknown>): object | undefined {
  const keys = Object.keys(value);
  for (const key of keys) if (!plan.allowed.has(key)) return undefined;
  const instance = new plan.cls() as Record<string, unknown>;
  for (const key of keys) instance[key] = value[key];
  // As class-transformer does first: nested plain objects become instances of their @Type class (validated
  // as they are built here), so the property checks below see what class-validator would see.
  for (const property of plan.properties) {
    const current = instance[property.name];
    if (property.nested === undefined || current === undefined || current === null) continue;
    if (property.nested === null) return undefined;
    const nestedPlan = planFor(property.nested.cls);
    if (!nestedPlan) return undefined;
    if (Array.isArray(current)) {
      const items: object[] = [];
      for (const item of current) {
        const built = isPlainObject(item) ? build(nestedPlan, item) : undefined;
        if (!built) return undefined;
        items.push(built);
      }
      instance[property.name] = items;
    } else if (isPlainObject(current)) {
      const built = build(nestedPlan, current);
      if (!built) return undefined;
      instance[property.name] = built;
    } else {
      return undefined;
    }
  }
  for (const property of plan.properties) {
    const current = instance[property.name];
    // All of them, as class-validator does (a condition that throws must throw here too).
    if (!property.conditions.map((condition) => condition(instance, current)).every(Boolean)) continue;
    if (property.nested !== undefined && current === null) return undefined; // class-validator: not an object
    for (const check of property.checks) if (!check(current, instance)) return undefined;
  }
  return instance;
}

/**
 * What a property's @Type builds: nothing ('none'), one fixed class, or something this file does not model
 * ('opaque': a discriminator, a type function that reads the value, or plain Object).
 */
function typeOf(cls: new () => object, key: string): { kind: 'none' } | { kind: 'opaque' } | { kind: 'class'; cls: new () => object } {
  const type = transformerMetadata().typeOf(cls, key);
  if (!type) return { kind: 'none' };
  if (type.options?.discriminator || type.typeFunction.length > 0) return { kind: 'opaque' };
  const nested = type.typeFunction() as unknown;
  return typeof nested === 'function' && nested !== Object ? { kind: 'class', cls: nested as new () => object } : { kind: 'opaque' };
}


/**
 * For the full path: class-transformer copies every object it meets, and on free-form values (user_data,
 * annotations ... any property without @Type) that copy loses keys named like Object.prototype members
 * ("toString", "__proto__") and throws on an own "constructor" key. So free-form objects are swapped for empty
 * placeholders before plainToInstance and the values as sent are put back on the instance after it, before
 * class-validator sees them: what is stored is exactly what was sent, on either path.
 */
export function shieldFreeForm(cls: new () => object, value: Record<string, unknown>): { shell: Record<string, unknown>; restore(instance: object): void } {
  const shell: Record<string, unknown> = { ...value };
  const restores: Array<(instance: Record<string, unknown>) => void> = [];
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (typeof field !== 'object' || field === null) continue;
    if (transformerMetadata().hasTransform(cls, key)) continue;
    const type = typeOf(cls, key);
    if (type.kind === 'opaque') continue;
    if (type.kind === 'class') {
      const nestedCls = type.cls;
      if (Array.isArray(field)) {
        const items = field.map((item) => (isPlainObject(item) ? shieldFreeForm(nestedCls, item) : undefined));
        shell[key] = field.map((item, i) => items[i]?.shell ?? item);
        restores.push((instance) => {
          const built = instance[key];
          if (Array.isArray(built)) items.forEach((item, i) => item && built[i] && typeof built[i] === 'object' && item.restore(built[i] as object));
        });
      } else if (isPlainObject(field)) {
        const nested = shieldFreeForm(nestedCls, field);
        shell[key] = nested.shell;
        restores.push((instance) => {
          const built = instance[key];
          if (built && typeof built === 'object') nested.restore(built);
        });
      }
      continue;
    }
    shell[key] = Array.isArray(field) ? [] : {};
    // Only where class-transformer kept the key (it skips keys that name a method of the class).
    restores.push((instance) => {
      if (Object.prototype.hasOwnProperty.call(instance, key)) instance[key] = field;
    });
  }
  return { shell, restore: (instance) => restores.forEach((restore) => restore(instance as Record<string, unknown>)) };
}

/**
 * For the full path: the keys of `value` (at any depth of its classes) that class-transformer did not copy
 * onto `instance`, as error paths. It skips keys named like a method the instance inherits ("constructor",
 * "toString", "hasOwnProperty" ...) and "__proto__", so class-validator's whitelist never sees them; they are
 * unknown fields all the same, and the full path reports them as such.
 */
export function uncopiedKeys(cls: new () => object, value: Record<string, unknown>, instance: object, prefix = ''): string[] {
  const out: string[] = [];
  const built = instance as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const path = joinPath(prefix, key);
    if (!Object.prototype.hasOwnProperty.call(built, key)) {
      out.push(path);
      continue;
    }
    const type = typeOf(cls, key);
    if (type.kind !== 'class') continue;
    const [field, copy] = [value[key], built[key]];
    if (Array.isArray(field) && Array.isArray(copy)) {
      field.forEach((item, i) => {
        if (isPlainObject(item) && copy[i] && typeof copy[i] === 'object') out.push(...uncopiedKeys(type.cls, item, copy[i] as object, `${path}[${i}]`));
      });
    } else if (isPlainObject(field) && copy && typeof copy === 'object') {
      out.push(...uncopiedKeys(type.cls, field, copy, path));
    }
  }
  return out;
}
