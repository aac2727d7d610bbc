// Loads worker.ts when the rules sandbox runs from TypeScript sources (jest, ts-node): worker threads do not
// inherit the parent's TypeScript hooks. The compiled service loads dist/.../worker.js directly.
require('ts-node').register({ transpileOnly: true, compilerOptions: { module: 'commonjs' } });
module.exports = require('./worker.ts');
