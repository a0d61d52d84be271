import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import type { TraceModel } from '../../src/core/traceModel';
import type { HostMessage, InitMessage, PersistedViewState, RowsMessage, RowsStateMessage } from '../../src/protocol';
import { NO_FILTER } from '../../src/protocol';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { RecordingHost, recordingHost } from '../helpers/viewerHost';
import { until } from '../helpers/until';
import { CLAUDE_SHELL_FAIL, CODEX_SHELL_FAIL, corpusFile } from '../helpers/treeCorpus';

/** The events of a model whose category is `other`: the writer's bookkeeping in these formats. */
const bookkeeping = (m: TraceModel): number[] => [...Array(m.events.size).keys()].filter((i) => m.events.categoryOf(i) === 'other');

async function opened(model: TraceModel, state: PersistedViewState | null = null): Promise<{ s: ViewerSession; host: RecordingHost; init: InitMessage }> {
  const host = recordingHost();
  const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
  await s.handle({ type: 'ready', state });
  s.setModel(model);
  return { s, host, init: host.sent.find((m): m is InitMessage => m.type === 'init')! };
}

/** Every row's node after the last rows state, asked for at once. */
async function rowNodes(s: ViewerSession, host: RecordingHost, version: number): Promise<number[]> {
  const before = host.sent.length;
  await s.handle({ type: 'requestRows', rowsVersion: version, start: 0, count: 2000 });
  const page = await until(() => host.sent.slice(before).find((m): m is RowsMessage => m.type === 'rows'));
  return page.rows.map((r) => r.node);
}

const lastState = (sent: HostMessage[]): RowsStateMessage => sent.filter((m): m is RowsStateMessage => m.type === 'rowsState').pop()!;

describe('tree: the writer\'s bookkeeping lines are folded out, still reachable (issue 40)', () => {
  it('Claude Code (real transcript): queue-operation, attachment and the rest are no rows; the toolbar learns how many', async () => {
    const model = await loadTrace(corpusFile(CLAUDE_SHELL_FAIL));
    const books = bookkeeping(model);
    assert.ok(books.length >= 10, `${books.length} bookkeeping lines`);
    assert.ok(books.some((i) => model.events.kindOf(i) === 'queue-operation') && books.some((i) => model.events.kindOf(i) === 'attachment'));
    const { s, host, init } = await opened(model);
    assert.deepEqual(init.bookkeeping, { count: books.length, shown: false });
    assert.equal(init.totalRows, model.events.size - books.length);
    const nodes = await rowNodes(s, host, init.rowsVersion);
    assert.deepEqual(nodes.filter((n) => books.includes(n)), [], 'no bookkeeping row');
    // The tool result stays under its call, which stays under the prompt: the rows keep the steps' shape.
    const result = nodes.find((n) => model.events.labelOf(n) === 'Bash: ls /nonexistent → exit 2, 65 ms')!;
    const call = nodes.find((n) => model.events.labelOf(n) === 'Bash: ls /nonexistent')!;
    assert.equal(nodes.indexOf(result), nodes.indexOf(call) + 1);
    // Shown by the toolbar: every event is a row.
    await s.handle({ type: 'setShowBookkeeping', show: true });
    assert.equal(lastState(host.sent).totalRows, model.events.size);
    s.dispose();
  });

  it('Go to Line on a folded line shows the bookkeeping lines and selects it; the toggle follows', async () => {
    const model = await loadTrace(corpusFile(CLAUDE_SHELL_FAIL));
    const { s, host } = await opened(model);
    const attachment = bookkeeping(model).find((i) => model.events.kindOf(i) === 'attachment')!;
    s.revealLine(model.events.lineOf(attachment));
    const st = lastState(host.sent);
    assert.deepEqual(st.bookkeeping, { count: bookkeeping(model).length, shown: true });
    assert.equal(st.reveal?.node, attachment);
    assert.equal(st.totalRows, model.events.size);
    assert.ok(host.sent.some((m) => m.type === 'fileState' && m.message === 'Bookkeeping lines are shown to show the event.'));
    s.dispose();
  });

  it('Codex (real rollout): the event_msg twins and token reports fold; a filter on a bookkeeping kind finds them', async () => {
    const model = await loadTrace(corpusFile(CODEX_SHELL_FAIL));
    const books = bookkeeping(model);
    const twins = books.filter((i) => model.events.kindOf(i) === 'item_completed' || model.events.kindOf(i) === 'message' || model.events.kindOf(i) === 'reasoning');
    assert.ok(twins.length >= 3, 'the echoed copies are bookkeeping');
    assert.ok(books.some((i) => model.events.kindOf(i) === 'token_count') && books.some((i) => model.events.kindOf(i) === 'token_usage_record'));
    const { s, host, init } = await opened(model);
    const nodes = await rowNodes(s, host, init.rowsVersion);
    assert.deepEqual(nodes.filter((n) => books.includes(n)), []);
    // Each step once: the user's prompt and the answer are one row each, not two.
    assert.equal(nodes.filter((n) => model.events.labelOf(n).startsWith('message user: List the folder')).length, 1);
    assert.equal(nodes.filter((n) => model.events.labelOf(n).startsWith('message assistant: The command failed')).length, 1);
    // The output, under the command's echoed copy in the model, is a row under its call.
    const call = nodes.find((n) => model.events.labelOf(n) === 'exec_command: ls /nonexistent')!;
    assert.equal(model.events.labelOf(nodes[nodes.indexOf(call) + 1]), 'exec_command: ls /nonexistent → exit 2, 0 ms');
    await s.handle({ type: 'setFilter', filter: { ...NO_FILTER, expr: 'kind:token_count' } });
    const filtered = await rowNodes(s, host, lastState(host.sent).rowsVersion);
    const counts = books.filter((i) => model.events.kindOf(i) === 'token_count');
    for (const c of counts) assert.ok(filtered.includes(c), 'the filter reaches a folded token_count');
    // The filter off again: folded as before.
    await s.handle({ type: 'setFilter', filter: NO_FILTER });
    assert.equal(lastState(host.sent).totalRows, init.totalRows);
    s.dispose();
  });

  it('the choice is kept in the viewer\'s saved state: a restored viewer shows them when they were shown', async () => {
    const model = await loadTrace(corpusFile(CODEX_SHELL_FAIL));
    const state: PersistedViewState = {
      selectedLine: null, topLine: null, expandedLines: null, expandedAll: false, detailTab: 'content', splitPosition: null, findQuery: '',
      filter: NO_FILTER, showChecks: false, contentRaw: false, showBookkeeping: true,
    };
    const { s, init } = await opened(model, state);
    assert.deepEqual(init.bookkeeping, { count: bookkeeping(model).length, shown: true });
    assert.equal(init.totalRows, model.events.size);
    s.dispose();
  });
});
