import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * One definition per concept, exported through its owner (`npm test` runs this): a second definition of a shape
 * drifts from the first unseen. Each concept here names the one file that may define it; a definition anywhere
 * else in src/ fails, naming the file. (libs/ has its own, since it may not import src/.)
 */
const SRC = path.resolve(__dirname, '..');

const CONCEPTS: Array<{ concept: string; owner: string; definition: RegExp }> = [
  // a trail's compliance status: the trails module's, used by actions and environments through its module file
  { concept: 'TrailStatus', owner: 'modules/trails/domain/compliance.ts', definition: /\b(?:type|interface|enum)\s+TrailStatus\b/ },
  // a trail pinned at one of its moments (an evaluation's trails): camel case inside, snake case only at the edges
  { concept: 'PinnedTrail', owner: 'modules/trails/trail-policy-input.ts', definition: /\binterface\s+(?:PinnedTrail|EvaluatedTrail)\b/ },
  // "a JSON object": not null, not an array, not a class instance
  {
    concept: 'isPlainObject',
    owner: 'common/validation/plain-object.ts',
    definition: /\bfunction\s+is(?:Plain)?Object\s*\(|\bconst\s+is(?:Plain)?Object\s*=/,
  },
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

describe('one shape per concept', () => {
  const files = sources(SRC).map((file) => ({ rel: path.relative(SRC, file), text: fs.readFileSync(file, 'utf8') }));

  it.each(CONCEPTS)('$concept is defined once, in $owner', ({ owner, definition }) => {
    const defining = files.filter((f) => definition.test(f.text)).map((f) => f.rel);
    expect(defining).toEqual([owner]);
  });
});
