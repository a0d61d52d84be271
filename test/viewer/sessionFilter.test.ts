import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { rowFilterExpression } from '../../src/core/filter/rowFilterExpr';
import { compileRowFilter, filterValuesOf, MAX_FILTER_VALUES, SessionFilter } from '../../src/viewer/sessionFilter';
import { kindsOf } from '../../src/viewer/sessionModelInfo';
import { EventTable } from '../../src/core/eventTable';
import { expandTraceFiles } from '../../src/core/traceFiles';
import { shownPath } from '../../src/core/tracePath';
import type { TraceModel } from '../../src/core/loadTrace';
import { CORPUS_ROOT, WRITER_CORPUS } from '../helpers/corpus';
import { parseViewMessage } from '../../src/protocol/validate';

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
    const filter = { kinds: [], status: 'all' as const, expr: 'text:escape -kind:inference' };
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
      .filter((r) => r.l.toLowerCase().includes('escape') && !r.l.includes('"event_type":"inference"'))
      .map((r) => r.line);
    assert.ok(want.length > 1);
    assert.deepEqual(pass(sf.predicate(model, filter, () => undefined)), want);
    assert.ok(first.every((l) => want.includes(l)) && first.length < want.length, 'before the lookup only labels matched');
  });

  it('accepts the expression and the regex toggle from the webview, within bounds', () => {
    const f = { type: 'setFilter', filter: { kinds: [], status: 'all', expr: 'kind:x' } };
    assert.deepEqual(parseViewMessage('viewer', f), f);
    assert.equal(parseViewMessage('viewer', { ...f, filter: { ...f.filter, expr: 'x'.repeat(10_001) } }), null);
    assert.equal(parseViewMessage('viewer', { ...f, filter: { ...f.filter, expr: 3 } }), null);
    const find = { type: 'find', query: 'a+', caseSensitive: false, regex: true };
    assert.deepEqual(parseViewMessage('viewer', find), find);
    assert.deepEqual(parseViewMessage('viewer', { type: 'find', query: 'a', caseSensitive: true }), { type: 'find', query: 'a', caseSensitive: true });
  });
});

/** The filter values as the viewer counted them before, a string per event and column into capped sets. */
function valuesByEvent(model: TraceModel): Record<string, string[]> {
  const sets = { tool: new Set<string>(), model: new Set<string>(), category: new Set<string>(), group: new Set<string>() };
  const t = model.events;
  const add = (set: Set<string>, v: string | null) => v !== null && set.size < MAX_FILTER_VALUES && set.add(v);
  for (let i = 0; i < t.size; i++) {
    add(sets.tool, t.toolOf(i));
    add(sets.model, t.modelOf(i));
    add(sets.category, t.categoryOf(i));
    add(sets.group, t.groupOf(i));
  }
  return Object.fromEntries(Object.entries(sets).map(([k, s]) => [k, [...s].sort()]));
}

describe('viewer filter values and kinds, read from the columns', function () {
  this.timeout(300_000);

  it('are the ones a string per event gives, on every corpus file, real-writer file and sample', async () => {
    const { files } = await expandTraceFiles([CORPUS_ROOT, WRITER_CORPUS, join(__dirname, '..', '..', 'samples')]);
    assert.ok(files.length > 60, `${files.length} files`);
    let tools = 0;
    for (const file of files) {
      const model = await loadTrace(file);
      assert.deepEqual(filterValuesOf(model), valuesByEvent(model), shownPath(file));
      const kinds = new Set<string>();
      for (let i = 0; i < model.events.size; i++) kinds.add(model.events.kindOf(i));
      assert.deepEqual(kindsOf(model), [...kinds].sort().concat(model.malformed.length > 0 ? ['unparseable line'] : []), shownPath(file));
      tools += filterValuesOf(model).tool.length;
    }
    assert.ok(tools > 50, `${tools} tools`);
  });

  it('keep the first 500 of each in file order when there are more, and only a view\'s own events', () => {
    const table = new EventTable();
    for (let i = 0; i < 3000; i++) {
      table.add({ kind: `k${i % 700}`, category: i % 3 === 0 ? 'tool' : 'inference', label: '', tool: i % 2 === 0 ? `tool-${(i * 7919) % 1200}` : null, model: i % 5 === 0 ? `m${i % 4}` : null, group: `g${i % 900}` }, { line: i + 1, offset: i * 10, length: 9 });
    }
    const model = { events: table, malformed: [] } as unknown as TraceModel;
    const values = filterValuesOf(model);
    assert.deepEqual(values, valuesByEvent(model));
    assert.deepEqual([values.tool.length, values.group.length, values.model.length, values.category], [500, 500, 4, ['inference', 'tool']]);
    const view = { events: table.prefix(100), malformed: [] } as unknown as TraceModel;
    assert.deepEqual(filterValuesOf(view), valuesByEvent(view));
    assert.deepEqual(kindsOf(view), Array.from({ length: 100 }, (_, i) => `k${i}`).sort());
  });
});

