/** Rule tree: one node per ground path under `data`; rules sit on the node of their ground head prefix. */
import type { Rule } from '../ast/types';

export type RuleKind = 'complete' | 'multi' | 'object' | 'function';

export class RuleNode {
  readonly children = new Map<string, RuleNode>();
  readonly rules: Rule[] = [];
  defaultRule?: Rule;
  kind?: RuleKind;
  arity?: number;
  /** any rule in this node or below */
  hasRules = false;
  /** a module declares this package (an empty package is still an empty object document) */
  isPackage = false;
  /** every rule's value term is a constant and bodies are trivially true (cheap to pre-evaluate) */
  readonly pathStr: string;
  /** rule index: for object/multi rules whose first dyn key is a constant string (built lazily) */
  index?: Map<string, Rule[]>;
  /** rules not covered by `index` (first argument not a constant) */
  indexRest?: Rule[];

  constructor(
    readonly name: string,
    readonly path: string[],
  ) {
    this.pathStr = refString(path);
  }

  child(name: string): RuleNode {
    let c = this.children.get(name);
    if (!c) {
      c = new RuleNode(name, [...this.path, name]);
      this.children.set(name, c);
    }
    return c;
  }

  find(path: readonly string[]): RuleNode | undefined {
    let n: RuleNode | undefined = this;
    for (const p of path) {
      n = n.children.get(p);
      if (!n) return undefined;
    }
    return n;
  }

  /** All nodes with rules in this subtree (including this one). */
  *ruleNodes(): Generator<RuleNode> {
    if (this.rules.length || this.defaultRule) yield this;
    for (const c of this.children.values()) yield* c.ruleNodes();
  }
}

export function refString(path: readonly string[], root = 'data'): string {
  let s = root;
  for (const p of path) s += /^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? '.' + p : '[' + JSON.stringify(p) + ']';
  return s;
}
