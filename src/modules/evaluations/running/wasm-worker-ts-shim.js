// Loads wasm-worker.ts when the engine runs from TypeScript sources (jest, ts-node): worker threads do not
// inherit the parent's TypeScript hooks. The compiled service loads dist/.../wasm-worker.js directly.
require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs' } });
module.exports = require('./wasm-worker.ts');
