import { strict as assert } from 'node:assert';
import { salvageJson } from '../../../src/core/json/salvageJson';

describe('salvageJson: what parses of a damaged pretty-printed document', () => {
  const doc = JSON.stringify({ a: 1, list: [{ b: 'x' }, { b: 'y' }], tail: true }, null, 2);

  it('leaves a damaged line out and reads on in the same object', () => {
    const lines = doc.split('\n');
    const at = lines.findIndex((l) => l.includes('"b": "x"'));
    const bad = [...lines.slice(0, at), '      {{ nope', ...lines.slice(at + 1)].join('\n');
    const r = salvageJson(bad)!;
    assert.deepEqual(r.value, { a: 1, list: [{}, { b: 'y' }], tail: true });
    assert.deepEqual(r.gaps.map((g) => [bad.slice(0, g.start).split('\n').length, g.torn]), [[at + 1, false]]);
  });

  it('keeps what came before a cut, drops the value the text ends in (a number cut short too)', () => {
    const cut = doc.slice(0, doc.indexOf('"y"') + 2);
    const r = salvageJson(cut)!;
    assert.deepEqual(r.value, { a: 1, list: [{ b: 'x' }, {}] });
    assert.equal(r.gaps.length, 1);
    assert.ok(r.gaps[0].torn);
    assert.deepEqual(salvageJson('{\n  "a": 1,\n  "n": 12')!.value, { a: 1 });
  });

  it('leaves JSON Lines with a damaged first line, and anything not starting with a lone bracket line, to the line reader', () => {
    assert.equal(salvageJson('{"a": 1\n{"b": 2}\n'), null);
    assert.equal(salvageJson('x\n{\n'), null);
  });

  it('gives up on nesting deeper than it recurses, with no throw', () => {
    assert.equal(salvageJson('[\n' + '['.repeat(5000)), null);
  });
});
