import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { rowFilterExpression } from '../../src/core/filter/rowFilterExpr';
import { compileRowFilter, SessionFilter } from '../../src/viewer/sessionFilter';
import { parseWebviewMessage } from '../../src/viewer/validateMessage';

const MURMUR = join(__dirname, '..', '..', 'samples', 'murmur', 'ses_583584f8e94410c93669237ac44d5d21', 'trace.jsonl');

describe('viewer filter in the filter language', () => {
  it('writes the old kinds/status controls as an expression', () => {
    assert.equal(rowFilterExpression([], 'all'), '');
    assert.equal(rowFilterExpression(['tool_call'], 'all'), 'kind:tool_call');
    assert.equal(rowFilterExpression(['a', 'unparseable line'], 'errors'), '(kind:a or kind:"unparseable line") (status:error)');
    assert.equal(rowFilterExpression([], 'problems', 'tool:shell or kind:x'), '(status:problems) (tool:shell or kind:x)');
    assert.ok(compileRowFilter({ kinds: ['or', 'say "x"'], status: 'all' }), 'odd kind names stay values');
    // A typed part that does not read is left out (the webview shows its error); the controls still apply.
    assert.equal(compileRowFilter({ kinds: ['x'], status: 'all', expr: 'tool:(' })?.source, 'kind:x');
  });

  it('filters by text in the lines once the background lookup is done, then by what the lines hold', async () => {
    const model = await loadTrace(MURMUR);
    let ready = 0;
    const sf = new SessionFilter(() => ready++);
    const filter = { kinds: [], status: 'all' as const, expr: 'text:greeting -kind:inference' };
    const pass = (p: ReturnType<SessionFilter['predicate']>) => {
      const lines: number[] = [];
      for (let i = 0; i < model.events.size; i++) if (p!.events(i)) lines.push(model.events.lineOf(i));
      return lines;
    };
    const first = pass(sf.predicate(model, filter, () => undefined));
    for (let i = 0; i < 200 && ready === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(ready, 1);
    const raw = readFileSync(MURMUR, 'utf8').split('\n');
    const want = raw
      .map((l, k) => ({ l, line: k + 1 }))
      .filter((r) => r.l.toLowerCase().includes('greeting') && !r.l.includes('"event_type":"inference"'))
      .map((r) => r.line);
    assert.ok(want.length > 1);
    assert.deepEqual(pass(sf.predicate(model, filter, () => undefined)), want);
    assert.ok(first.every((l) => want.includes(l)) && first.length < want.length, 'before the lookup only labels matched');
  });

  it('accepts the expression and the regex toggle from the webview, within bounds', () => {
    const f = { type: 'setFilter', filter: { kinds: [], status: 'all', expr: 'kind:x' } };
    assert.deepEqual(parseWebviewMessage(f), f);
    assert.equal(parseWebviewMessage({ ...f, filter: { ...f.filter, expr: 'x'.repeat(10_001) } }), null);
    assert.equal(parseWebviewMessage({ ...f, filter: { ...f.filter, expr: 3 } }), null);
    const find = { type: 'find', query: 'a+', caseSensitive: false, regex: true };
    assert.deepEqual(parseWebviewMessage(find), find);
    assert.deepEqual(parseWebviewMessage({ type: 'find', query: 'a', caseSensitive: true }), { type: 'find', query: 'a', caseSensitive: true });
  });
});
