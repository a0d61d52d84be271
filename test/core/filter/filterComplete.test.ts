import { strict as assert } from 'node:assert';
import { filterCompletions } from '../../../src/core/filter/filterComplete';
import { filterChips, removeChip } from '../../../src/core/filter/filterChips';
import { compileFilter } from '../../../src/core/filter/filterCompile';

const values = { kind: ['tool_call', 'inference', 'unparseable line'], tool: ['shell', 'read_file'], model: ['claude-sonnet-4-5'] };
const at = (text: string, cursor = text.length) => filterCompletions(text, cursor, values);

describe('filter language: completions and chips', () => {
  it('offers fields where a term starts, numbers with ">"', () => {
    assert.deepEqual(at('').items.map((i) => i.label).slice(0, 4), ['kind', 'status', 'tool', 'model']);
    const d = at('kind:x du');
    assert.deepEqual([d.from, d.to, d.items.map((i) => i.insert)], [7, 9, ['duration>']]);
    assert.deepEqual(at('-to').items.map((i) => i.insert), ['tool:', 'tokens>'], 'after "-" too');
  });

  it("offers the trace's values after field:, quoting the ones that need it, after a comma too", () => {
    const k = at('kind:');
    assert.deepEqual([k.from, k.items.map((i) => i.insert)], [5, ['tool_call', 'inference', '"unparseable line"']]);
    assert.deepEqual(at('status:er').items.map((i) => i.label), ['error']);
    const alt = at('tool:shell,re');
    assert.deepEqual([alt.from, alt.items.map((i) => i.insert)], [11, ['read_file']]);
    assert.deepEqual(at('model:sonnet').items.map((i) => i.label), ['claude-sonnet-4-5'], 'contained matches after prefix ones');
    assert.deepEqual(at('colour:').items, []);
    // Every insert reads back as a valid term.
    for (const i of at('kind:').items) assert.ok(compileFilter(`kind:${i.insert}`));
  });

  it('splits an expression into chips at top-level "and", keeping or-chains, negations and groups whole', () => {
    const src = 'kind:tool_call status:error or status:warning -tool:shell not model:x (a or b) and text:"x y"';
    assert.deepEqual(filterChips(src).map((c) => c.text), [
      'kind:tool_call', 'status:error or status:warning', '-tool:shell', 'not model:x', '(a or b)', 'text:"x y"',
    ]);
    const chips = filterChips(src);
    assert.equal(removeChip(src, chips[1]), 'kind:tool_call -tool:shell not model:x (a or b) and text:"x y"');
    assert.deepEqual(filterChips('  '), []);
    assert.deepEqual(filterChips('text:"a (b" x').map((c) => c.text), ['text:"a (b"', 'x'], 'parentheses inside quotes');
  });
});
