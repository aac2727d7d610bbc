import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';

/**
 * The limits every YAML document from a request is read with, stated here rather than left to the parser's
 * defaults: how many alias (`*name`) expansions the document may make (0: an alias is refused outright, so no
 * anchor bomb can expand) and how deeply collections may nest. The document's size is bounded before it gets
 * here (the form's file limit).
 */
export interface YamlLimits {
  maxAliasCount: number;
  maxDepth: number;
  /** Refuse a tag the parser does not know (`!!js/function`, `!foo`) instead of reading its value as text. */
  refuseUnknownTags: boolean;
}

export class YamlLimitError extends Error {}

/** Parses one YAML document within `limits`; any problem is a YamlLimitError with a one-line message. */
export function parseLimitedYaml(source: string, limits: YamlLimits): unknown {
  let doc: ReturnType<typeof parseDocument>;
  try {
    // Duplicate keys are found below: the parser's own check compares each key with every earlier one of its
    // mapping, which takes seconds for a mapping of some ten thousand keys.
    doc = parseDocument(source, { uniqueKeys: false, prettyErrors: false, strict: true });
  } catch (error) {
    if (error instanceof RangeError) throw new YamlLimitError(`nests more than ${limits.maxDepth} levels deep`);
    throw new YamlLimitError(`is not valid YAML: ${firstLine(error)}`);
  }
  if (doc.errors.length) throw new YamlLimitError(`is not valid YAML: ${firstLine(doc.errors[0])}`);
  if (limits.refuseUnknownTags) {
    const tag = doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
    if (tag) throw new YamlLimitError(`uses a tag this service does not read: ${firstLine(tag)}`);
  }
  // An explicit stack, so that the depth check itself cannot overflow.
  const stack: [unknown, number][] = [[doc.contents, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (isAlias(node) && limits.maxAliasCount === 0) throw new YamlLimitError(`must not use aliases (*${node.source})`);
    if (isPair(node)) {
      stack.push([node.key, depth], [node.value, depth]);
    } else if (isMap(node) || isSeq(node)) {
      if (depth >= limits.maxDepth) throw new YamlLimitError(`nests more than ${limits.maxDepth} levels deep`);
      if (isMap(node)) {
        const keys = new Set<unknown>();
        for (const pair of node.items) {
          if (!isScalar(pair.key)) continue;
          if (keys.has(pair.key.value)) throw new YamlLimitError(`is not valid YAML: map keys must be unique (${String(pair.key.value).slice(0, 64)})`);
          keys.add(pair.key.value);
        }
      }
      for (const item of node.items as unknown[]) stack.push([item, depth + 1]);
    }
  }
  try {
    return doc.toJS({ maxAliasCount: limits.maxAliasCount });
  } catch (error) {
    // An unresolved alias, or more alias expansions than allowed.
    throw new YamlLimitError(`cannot be read: ${firstLine(error)}`);
  }
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0];
}
