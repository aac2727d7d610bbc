// Validates an OpenAPI document (JSON on stdin) with @seriousme/openapi-schema-validator, an ES module that
// jest's CommonJS runtime cannot load; prints {"valid": ..., "version": ..., "errors": ...} as JSON.
import { Validator } from '@seriousme/openapi-schema-validator';

let text = '';
for await (const chunk of process.stdin) text += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(text));
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
