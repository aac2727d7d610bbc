import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

/**
 * What is wrong with a map-like value (an object whose keys are data: `digests`, `set_tags`), keyed by the
 * entry each problem is about, or null when it is valid. The key '' is the value as a whole (not an object).
 */
export type KeyedProblems = (value: unknown) => Record<string, string> | null;

const explainers = new Map<string, KeyedProblems>();

/**
 * A property holding a map whose entries are checked one by one, with each problem reported under the entry's
 * own path (`artifacts[2].digests.web`, `set_tags.team`) rather than under the map. `name` names the
 * constraint (unique per rule). The fast compiled path calls `problems` like any custom constraint.
 */
export function IsKeyedMap(name: string, problems: KeyedProblems, options?: ValidationOptions): PropertyDecorator {
  const known = explainers.get(name);
  if (known && known !== problems) throw new Error(`keyed map constraint '${name}' is defined twice`);
  explainers.set(name, problems);
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => problems(value) === null,
        defaultMessage: (args?: ValidationArguments) => Object.values(problems(args?.value) ?? {})[0] ?? 'is invalid',
      },
    });
}

/**
 * For the error flattener: the per-entry problems of a failed keyed-map constraint among `constraints`, or
 * null when none of them is one.
 */
export function keyedMapProblems(constraints: Record<string, string>, value: unknown): Record<string, string> | null {
  for (const name of Object.keys(constraints)) {
    const explain = explainers.get(name);
    if (explain) return explain(value) ?? { '': constraints[name] };
  }
  return null;
}
