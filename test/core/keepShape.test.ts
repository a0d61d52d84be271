import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// Whether a kept object still has the map of objects made later, once one of those was given fractions: asked of
// V8 itself (%HaveSameMap), in a child process that allows its natives syntax.
function sameMaps(keep: boolean): { afterFractions: boolean; fresh: boolean } {
  const script = `
    const { keepShape } = require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'core', 'keepShape'))});
    class Sums { constructor() { this.calls = 0; this.cost = null; this.tokens = 0; this.name = undefined; } }
    const kept = ${keep ? 'keepShape(new Sums())' : 'new Sums()'};
    const a = new Sums();
    a.cost = 0.25; a.tokens = 1.5; a.calls = 2 ** 40; a.name = 'x';
    const b = new Sums();
    process.stdout.write(JSON.stringify({ afterFractions: %HaveSameMap(kept, a), fresh: %HaveSameMap(kept, b) }));
  `;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--require', 'tsx/cjs', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('keepShape: a kept object keeps the map of the objects made after it', () => {
  it('objects given fractions, and objects made after them, share the kept object\'s map', () => {
    assert.deepEqual(sameMaps(true), { afterFractions: true, fresh: true });
  });

  it('without keepShape, an object made before any fraction is left with a map the later objects no longer have', () => {
    // The case keepShape exists for: had this held, keeping any object would do.
    assert.deepEqual(sameMaps(false), { afterFractions: false, fresh: false });
  });
});
