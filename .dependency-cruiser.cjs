/**
 * Module boundaries, checked by `npm test` (src/modules/module-boundaries.spec.ts runs them). Each rule says
 * what it protects; docs/architecture.md explains the layout they enforce. Specs (`*.spec.ts`) may import what
 * they test, wherever it is.
 */
const SPEC = '\\.spec\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'module-public-surface',
      severity: 'error',
      comment:
        'A feature module is entered only through its module file (src/modules/<name>/<name>.module.ts), which ' +
        "exports its facades and re-exports its public types. Never import another module's persistence/, domain/, " +
        'commands/, queries/, dto/ or any other internal file: ask the owner to export what you need.',
      from: { path: '^src/modules/([^/]+)/', pathNot: SPEC },
      to: {
        path: '^src/modules/([^/]+)/',
        pathNot: ['^src/modules/$1/', '^src/modules/([^/]+)/\\1\\.module\\.ts$', '^src/modules/feature-modules\\.ts$'],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles, within a module or between modules (a module-level cycle always shows as a file cycle, ' +
        'because a module file imports its providers), nor in libs/ (the Rego engine: builtin families import the ' +
        'leaf contract.ts, compiler checks the leaf types.ts, evaluator modules the leaf eval/core.ts). Type-only ' +
        'imports count too.',
      from: { path: '^(src|libs)/' },
      to: { circular: true },
    },
    {
      name: 'common-below-modules',
      severity: 'error',
      comment: 'src/common, src/database and src/jobs are shared infrastructure: they never depend on a feature module.',
      from: { path: '^src/(common|database|jobs)/', pathNot: SPEC },
      to: { path: '^src/modules/' },
    },
    {
      name: 'domain-is-plain',
      severity: 'error',
      comment:
        'domain/ holds plain types and rules: no Nest, no TypeORM, no persistence, no other module at run time ' +
        '(type-only imports of a module file are fine: they vanish when compiled).',
      from: { path: '^src/modules/[^/]+/domain/', pathNot: SPEC },
      to: {
        path: ['^node_modules/(@nestjs|typeorm|pg)/', '/persistence/', '^src/modules/[^/]+/[^/]+\\.module\\.ts$'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'libs-stand-alone',
      severity: 'error',
      comment: 'libs/ is code with no Nest and no service in it: it may not import Nest, TypeORM or anything under src/.',
      from: { path: '^libs/' },
      to: { path: ['^src/', '^node_modules/(@nestjs|typeorm)/'] },
    },
    {
      name: 'rego-front-door',
      severity: 'error',
      comment:
        'The service enters the Rego engine (libs/rego) only through its doors: libs/rego/src/index.ts (compile, ' +
        'evaluate, the wasm host builtins) and libs/rego/src/sandbox/index.ts (the worker-thread sandbox, a door of ' +
        'its own so that the service never loads the engine in its own thread). builtins/, value.ts and every other ' +
        'file are the library\'s to change. Lazy require() calls count too.',
      from: { path: '^src/' },
      to: { path: '^libs/rego/src/', pathNot: ['^libs/rego/src/index\\.ts$', '^libs/rego/src/sandbox/index\\.ts$'] },
    },
    {
      name: 'verifier-stands-alone',
      severity: 'error',
      comment:
        'The verifier checks the service, so it shares no code with the write path: it carries its own ' +
        'implementation of every format (libs/transparency/verifier/formats/) and, outside its own folder, may ' +
        'import nothing of the project but the Rego engine\'s front door (libs/rego/src/index.ts, for --replay). ' +
        'Not libs/transparency/src, which the service writes with. Its specs may import libs/transparency/src, to ' +
        'check that the two implementations agree. Type-only imports count too.',
      from: { path: '^libs/transparency/verifier/', pathNot: SPEC },
      to: { path: '^(src|libs)/', pathNot: ['^libs/transparency/verifier/', '^libs/rego/src/index\\.ts$'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import that does not resolve is a typo or a missing dependency. The MCP SDK is entered through subpaths ' +
        'of its exports map (`@modelcontextprotocol/sdk/server/index.js`), which this resolver is not set to read ' +
        '(reading exports maps would hide @nestjs/swagger\'s type files); tsc and every MCP spec resolve them.',
      from: { path: '^(src|libs)/' },
      to: { couldNotResolve: true, pathNot: '^@modelcontextprotocol/sdk/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.d.ts', '.js', '.json'] },
  },
};
