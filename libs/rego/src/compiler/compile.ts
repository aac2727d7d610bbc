/** Compiler: parse modules, build the rule tree, resolve names, order bodies for safety, check recursion/types. */
import type { Annotation, Module, Rule, Term, VarTerm } from '../ast/types';
import { RegoError, RegoErrors } from '../errors';
import { parseModule } from '../parser/parser';
import { BUILTINS } from '../builtins/registry';
import { builtinsFor } from '../builtins/capabilities';
import type { Value } from '../value';
import { Resolver, ResolveEnv } from './resolve';
import { localizeClosureVars, SafetyChecker, termVars } from './safety';
import { RuleKind, RuleNode } from './tree';
import { checkRecursion } from './recursion';
import { checkCall } from './typecheck';
import { strictChecks, v1Checks } from './strict';
import { indexComprehensions } from './comp-index';
import { CompiledPolicy } from './policy';
import { injectTestCaseCalls, TEST_CASE_BUILTIN } from './test-cases';
import type { CompileOptions } from './types';

export { CompiledPolicy } from './policy';
export type { CompileOptions, CompiledQuery, PolicyView } from './types';

/** The Rego version a file is parsed with under these options. */
export function regoVersionOf(file: string, opts: CompileOptions): 0 | 1 {
  const own = opts.fileRegoVersions && Object.prototype.hasOwnProperty.call(opts.fileRegoVersions, file) ? opts.fileRegoVersions[file] : undefined;
  return own ?? opts.regoVersion ?? 1;
}

function headPath(pkg: string[], rule: Rule): { path: string[]; dyn: Term[] } {
  const path = [...pkg, (rule.head.ref[0] as VarTerm).name];
  const dyn: Term[] = [];
  for (let i = 1; i < rule.head.ref.length; i++) {
    const t = rule.head.ref[i];
    if (dyn.length === 0 && t.type === 'scalar' && typeof t.value === 'string') path.push(t.value);
    else dyn.push(t);
  }
  return { path, dyn };
}

function ruleKind(rule: Rule, dyn: Term[]): RuleKind {
  if (rule.head.args) return 'function';
  if (rule.head.contains) return 'multi';
  if (dyn.length) return 'object';
  return 'complete';
}

export function compileModules(files: Record<string, string>, opts: CompileOptions = {}): CompiledPolicy {
  let builtins = opts.capabilities ? builtinsFor(opts.capabilities, BUILTINS) : BUILTINS;
  if (opts.builtins?.length) {
    builtins = new Map(builtins);
    for (const b of opts.builtins) builtins.set(b.name, b);
  }
  if (opts.testCases && !builtins.has(TEST_CASE_BUILTIN) && BUILTINS.has(TEST_CASE_BUILTIN)) {
    builtins = new Map(builtins).set(TEST_CASE_BUILTIN, BUILTINS.get(TEST_CASE_BUILTIN)!);
  }
  const policy = new CompiledPolicy(builtins);
  const errors: RegoError[] = [];
  for (const name of Object.keys(files).sort()) {
    try {
      policy.modules.push(parseModule(files[name], name, { regoVersion: regoVersionOf(name, opts) }));
    } catch (e) {
      if (e instanceof RegoError) errors.push(e);
      else throw e;
    }
  }
  if (errors.length) throw errors.length === 1 ? errors[0] : new RegoErrors(errors);
  if (opts.testCases) injectTestCaseCalls(policy.modules);

  // 1. rule tree
  const ruleNames = new Map<string, Set<string>>();
  for (const m of policy.modules) {
    const pkgKey = m.package.path.join('\u0000');
    let pkgNode = policy.root;
    for (const p of m.package.path) pkgNode = pkgNode.child(p);
    pkgNode.isPackage = true;
    let names = ruleNames.get(pkgKey);
    if (!names) ruleNames.set(pkgKey, (names = new Set()));
    for (const r of m.rules) {
      const { path, dyn } = headPath(m.package.path, r);
      r.path = path;
      r.dyn = dyn;
      r.kind = ruleKind(r, dyn);
      names.add((r.head.ref[0] as VarTerm).name);
      for (let e = r.else; e; e = e.else) {
        e.path = path;
        e.dyn = dyn;
        e.kind = r.kind;
      }
      let node = policy.root;
      for (const p of path) node = node.child(p);
      if (r.kind === 'function' && dyn.length) {
        errors.push(new RegoError('rego_parse_error', 'function rule heads must be ground', r.loc));
        continue;
      }
      if (r.default) {
        if (node.defaultRule) errors.push(new RegoError('rego_type_error', `multiple default rules ${node.pathStr} found`, r.loc));
        node.defaultRule = r;
        if (r.kind === 'object' || r.kind === 'multi') {
          errors.push(new RegoError('rego_type_error', 'default rules must not have variables in their heads', r.loc));
        }
      } else node.rules.push(r);
      if (node.kind && node.kind !== r.kind) {
        errors.push(new RegoError('rego_type_error', `conflicting rules ${node.pathStr} found`, r.loc));
      }
      node.kind ??= r.kind;
      if (r.kind === 'function') {
        const ar = r.head.args!.length;
        if (node.arity !== undefined && node.arity !== ar) {
          errors.push(new RegoError('rego_type_error', `conflicting rules ${node.pathStr} found`, r.loc));
        }
        node.arity = ar;
        policy.funcs.set('data.' + path.join('.'), node);
      }
    }
  }
  const markRules = (n: RuleNode): boolean => {
    let has = n.rules.length > 0 || !!n.defaultRule || n.isPackage;
    for (const c of n.children.values()) if (markRules(c)) has = true;
    n.hasRules = has;
    return has;
  };
  markRules(policy.root);
  // A node with a complete/function rule cannot have rules below it (`p := 1` and `p.q := 2`).
  for (const n of policy.root.ruleNodes()) {
    if ((n.kind === 'complete' || n.kind === 'function') && [...n.children.values()].some((c) => c.hasRules)) {
      const r = n.rules[0] ?? n.defaultRule!;
      errors.push(new RegoError('rego_type_error', `rule ${n.pathStr} conflicts with [${[...n.children.values()].filter((c) => c.hasRules).map((c) => c.pathStr).join(' ')}]`, r.loc));
    }
  }

  // 2. resolve, order, check each rule
  const depsByNode = new Map<RuleNode, Term[]>();
  for (const m of policy.modules) {
    const imports = new Map<string, Term[]>();
    for (const imp of m.imports) {
      const terms = imp.path.terms;
      const head = terms[0] as VarTerm;
      if (head.name === 'future' || head.name === 'rego') continue;
      const last = terms[terms.length - 1];
      const alias = imp.alias ?? (terms.length === 1 ? head.name : last.type === 'scalar' ? String(last.value) : '');
      if (!alias) {
        errors.push(new RegoError('rego_compile_error', 'import path must end with a string', imp.loc));
        continue;
      }
      // v0 lets a later import replace an earlier one of the same name; v1 refuses it
      if (imports.has(alias) && m.regoVersion !== 0) errors.push(new RegoError('rego_compile_error', `import must not shadow import ${alias}`, imp.loc));
      if (terms.length === 1 && imp.alias) {
        // `import input as x` / `import data as d`
      }
      imports.set(alias, [{ type: 'var', name: head.name, slot: -1, loc: imp.loc }, ...terms.slice(1)]);
    }
    const names = ruleNames.get(m.package.path.join('\u0000'))!;
    const usedImports = new Set<string>();
    for (let i = 0; i < m.rules.length; i++) {
      const rule = m.rules[i];
      const env: ResolveEnv = {
        pkg: m.package.path,
        ruleNames: names,
        imports,
        isFunction: (n) => policy.funcs.has(n),
        arityOf: (n) => policy.arityOf(n),
        metadata: (name) => metadataFor(policy, m, rule, name),
        checkCall: (t) => checkCall(t, policy),
        errors,
        usedImports,
        deps: [],
      };
      const res = new Resolver(env);
      const chain: Rule[] = [];
      for (let r: Rule | undefined = rule; r; r = r.else) chain.push(r);
      const resolved = chain.map((r) => res.resolveRule(r));
      const sc = new SafetyChecker(res.slotNames);
      for (const r of resolved) {
        const argSafe = new Set<number>();
        for (const a of r.head.args ?? []) termVars(a, argSafe);
        const headTerms0: Term[] = [...(r.dyn ?? [])];
        if (r.head.key) headTerms0.push(r.head.key);
        if (r.head.value) headTerms0.push(r.head.value);
        localizeClosureVars(r.body, argSafe, headTerms0);
        const { body, safe } = sc.reorder(r.body, argSafe);
        r.body = body;
        const headTerms: Term[] = [...(r.dyn ?? [])];
        if (r.head.key) headTerms.push(r.head.key);
        if (r.head.value) headTerms.push(r.head.value);
        sc.checkHead(headTerms, safe, r.head.loc);
        r.nslots = res.nslots;
        r.slotNames = res.slotNames;
      }
      errors.push(...sc.errors);
      // the v1 checks run for v1 modules always; strict mode adds them to v0 modules too
      if (opts.strict) errors.push(...strictChecks(resolved, policy, m.regoVersion !== 0));
      if (m.regoVersion !== 0) errors.push(...v1Checks(resolved, policy));
      if (!sc.errors.length) indexComprehensions(resolved);
      for (let k = 0; k + 1 < resolved.length; k++) resolved[k].else = resolved[k + 1];
      for (const r of resolved) r.nslots = res.nslots;
      // replace in module and in the tree
      const node = policy.root.find(rule.path!)!;
      const nodeDeps = depsByNode.get(node);
      if (nodeDeps) for (const t of env.deps!) nodeDeps.push(t);
      else depsByNode.set(node, env.deps!);
      if (rule.default) node.defaultRule = resolved[0];
      else node.rules[node.rules.indexOf(rule)] = resolved[0];
      m.rules[i] = resolved[0];
    }
    if (opts.strict) {
      for (const imp of m.imports) {
        const head = imp.path.terms[0] as VarTerm;
        if (head.name === 'future' || head.name === 'rego') continue;
        const last = imp.path.terms[imp.path.terms.length - 1];
        const alias = imp.alias ?? (last.type === 'scalar' ? String(last.value) : head.name);
        if (!usedImports.has(alias)) {
          errors.push(new RegoError('rego_compile_error', `import ${refText(imp.path.terms)}${imp.alias ? ' as ' + imp.alias : ''} unused`, imp.loc));
        }
      }
    }
  }
  if (errors.length) throw errors.length === 1 ? errors[0] : new RegoErrors(dedupe(errors));
  const rec = checkRecursion(policy, depsByNode);
  if (rec.length) throw rec.length === 1 ? rec[0] : new RegoErrors(rec);
  return policy;
}

function dedupe(errs: RegoError[]): RegoError[] {
  const seen = new Set<string>();
  return errs.filter((e) => (seen.has(e.message) ? false : (seen.add(e.message), true)));
}

function refText(terms: Term[]): string {
  return terms.map((t, i) => (i === 0 ? (t as VarTerm).name : t.type === 'scalar' ? String(t.value) : '?')).join('.');
}

// ---------------------------------------------------------------------------------------------------------------
// Metadata (rego.metadata.chain / rule are static per rule)

function annotationValue(a: Annotation): Value {
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(a.fields)) out[k] = v as Value;
  out.scope = a.scope;
  // OPA normalises authors ("Name <email>") and related_resources (URL strings) into objects
  if (Array.isArray(a.fields.authors)) {
    out.authors = a.fields.authors.map((x) => {
      if (typeof x !== 'string') return x as Value;
      const m = /^(.*?)\s*<([^>]+)>\s*$/.exec(x);
      if (m) return m[1] ? { name: m[1], email: m[2] } : { email: m[2] };
      return x.includes('@') && !x.includes(' ') ? { email: x } : { name: x.trim() };
    });
  }
  if (Array.isArray(a.fields.related_resources)) {
    out.related_resources = a.fields.related_resources.map((x) => (typeof x === 'string' ? { ref: x } : (x as Value)));
  }
  return out;
}

const docAnnotations = new WeakMap<CompiledPolicy, Map<string, Annotation>>();

function metadataFor(policy: CompiledPolicy, mod: Module, rule: Rule, name: string): Value | undefined {
  const ruleAnn = rule.annotations?.find((a) => a.scope === 'rule') ?? rule.annotations?.[0];
  // document-scoped annotations on any rule of the same path (indexed once per compile)
  let docs = docAnnotations.get(policy);
  if (!docs) {
    docs = new Map();
    for (const m of policy.modules) {
      for (const r of m.rules) {
        const d = r.annotations?.find((a) => a.scope === 'document');
        if (d && r.path) docs.set(r.path.join('\u0000'), d);
      }
    }
    docAnnotations.set(policy, docs);
  }
  const docAnn = rule.path ? docs.get(rule.path.join('\u0000')) : undefined;
  if (name === 'rego.metadata.rule') return ruleAnn ? annotationValue(ruleAnn) : {};
  const chain: Value[] = [];
  const rulePath = [...(rule.path ?? [])]; // OPA drops the leading `data`
  if (ruleAnn) chain.push({ path: rulePath, annotations: annotationValue(ruleAnn) });
  else chain.push({ path: rulePath });
  if (docAnn) chain.push({ path: rulePath, annotations: annotationValue(docAnn) });
  const pkg = mod.package.path;
  for (let len = pkg.length; len >= 1; len--) {
    const prefix = pkg.slice(0, len).join('.');
    for (const m of policy.modules) {
      if (m.package.path.join('.') !== prefix) continue;
      for (const a of m.annotations) {
        if ((a.scope === 'package' && len === pkg.length) || a.scope === 'subpackages') {
          chain.push({ path: pkg.slice(0, len), annotations: annotationValue(a) });
        }
      }
    }
  }
  return chain;
}
