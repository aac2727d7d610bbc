import { spawnSync } from 'node:child_process';
import { youngBufferFlag } from './heap-tuning';

describe('youngBufferFlag', () => {
  it('restores the young limit on a V8 with the larger default (13.6 on), and only there', () => {
    expect(youngBufferFlag('13.6.233.10-node.32', [])).toBe('--scavenger-max-new-space-capacity-mb=8');
    expect(youngBufferFlag('14.1.146.11-node.5', ['--enable-source-maps'])).toBe('--scavenger-max-new-space-capacity-mb=8');
    expect(youngBufferFlag('13.5.212.10-node.8', [])).toBeNull();
    expect(youngBufferFlag('12.4.254.21-node.33', [])).toBeNull(); // Node 22
    expect(youngBufferFlag('11.3.244.8-node.30', [])).toBeNull(); // Node 20
  });

  it("never overrides the operator's own value, however it is spelled", () => {
    expect(youngBufferFlag('13.6.233.10-node.32', ['--scavenger-max-new-space-capacity-mb=32'])).toBeNull();
    expect(youngBufferFlag('13.6.233.10-node.32', ['--scavenger_max_new_space_capacity_mb=16'])).toBeNull();
  });

  it('sets a flag this runtime accepts, when it sets one', () => {
    // On the machine's Node: the module loads and applies its answer without an error from V8.
    const script = `const t = require(${JSON.stringify(require.resolve('./heap-tuning'))}); process.stdout.write(String(t.tuneHeapForBuffers()));`;
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(String(youngBufferFlag(process.versions.v8, [])));
  });
});
