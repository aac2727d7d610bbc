/** A compiled policy: the rule tree, functions by name, modules and the builtins available. */
import type { Module } from '../ast/types';
import type { BuiltinDecl } from '../builtins/contract';
import { compileQuery } from './query';
import { RuleNode } from './tree';
import type { CompiledQuery, PolicyView } from './types';

export class CompiledPolicy implements PolicyView {
  readonly root = new RuleNode('data', []);
  readonly funcs = new Map<string, RuleNode>();
  readonly modules: Module[] = [];
  readonly builtins: Map<string, BuiltinDecl>;

  constructor(builtins: Map<string, BuiltinDecl>) {
    this.builtins = builtins;
  }

  arityOf(name: string): number | undefined {
    const f = this.funcs.get(name);
    if (f) return f.arity;
    const b = this.builtins.get(name);
    if (b) return b.variadic ? Infinity : b.args.length;
    return undefined;
  }

  compileQuery(src: string): CompiledQuery {
    return compileQuery(this, src);
  }

}

