import { strict as assert } from 'node:assert';
import { appendFileSync, copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTrace, TraceModel } from '../../src/core/loadTrace';
import { MAX_PAGE_ROWS } from '../../src/viewer/traceRows';
import { SessionHost, ViewerSession } from '../../src/viewer/viewerSession';
import type { DetailMessage, FindResultsMessage, HostMessage, InitMessage, RowsMessage, RowsStateMessage } from '../../src/protocol';
import { malformedNode } from '../../src/viewer/rowModel';
import { tempDir } from '../helpers/tmp';

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

/** A stub host that records what the session posts. */
function stubHost(): SessionHost & { sent: HostMessage[]; calls: string[] } {
  const sent: HostMessage[] = [];
  const calls: string[] = [];
  return {
    sent,
    calls,
    post: (m) => sent.push(m),
    revealInTextEditor: (line) => calls.push(`reveal:${line}`),
    copy: (t) => calls.push(`copy:${t}`),
    openExternal: (u) => calls.push(`open:${u}`),
    runChecks: (m) => calls.push(`checks:${m}`),
    openAsText: () => calls.push('openAsText'),
    reload: () => calls.push('reload'),
    openBlob: (d) => calls.push(`blob:${d}`),
  };
}

function last<T extends HostMessage['type']>(host: { sent: HostMessage[] }, type: T): Extract<HostMessage, { type: T }> {
  for (let i = host.sent.length - 1; i >= 0; i--) if (host.sent[i].type === type) return host.sent[i] as Extract<HostMessage, { type: T }>;
  throw new Error(`no ${type} message; got ${host.sent.map((m) => m.type).join(', ')}`);
}

async function until(f: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(f(), `timed out waiting for ${what}`);
}

async function rowsOf(s: ViewerSession, host: { sent: HostMessage[] }): Promise<RowsMessage> {
  const st = [...host.sent].reverse().find((m): m is RowsStateMessage | InitMessage => m.type === 'rowsState' || m.type === 'init');
  assert.ok(st, 'no init or rowsState');
  const version = st.rowsVersion;
  await s.handle({ type: 'requestRows', rowsVersion: version, start: 0, count: 100 });
  return last(host, 'rows');
}

async function open(path = SAMPLE): Promise<{ s: ViewerSession; host: ReturnType<typeof stubHost>; model: TraceModel }> {
  const host = stubHost();
  const s = new ViewerSession(host);
  const model = await loadTrace(path, { format: 'generic' });
  await s.handle({ type: 'ready', state: null });
  // These tests read the sample's real tree; the compact view (generic's default) has its own tests.
  await s.handle({ type: 'setCompactChains', compact: false });
  s.setModel(model);
  return { s, host, model };
}

describe('viewer session: paging and state', () => {
  it('sends nothing before the webview is ready, then init with header and kinds', async () => {
    const host = stubHost();
    const s = new ViewerSession(host);
    s.setModel(await loadTrace(SAMPLE, { format: 'generic' }));
    assert.equal(host.sent.length, 0);
    await s.handle({ type: 'ready', state: null });
    const init = last(host, 'init');
    assert.equal(init.header.events, 11);
    assert.equal(init.header.malformedLines, 1);
    assert.equal(init.header.groups, 1);
    assert.equal(init.header.inputTokens, 2700);
    assert.equal(init.header.startTime, '2026-01-01T00:00:00.000Z');
    assert.ok(init.kinds.includes('tool_call') && init.kinds.includes('unparseable line'));
    assert.equal(init.totalRows, 12, 'small traces open fully expanded: 11 events + 1 malformed line');
    assert.equal(last(host, 'loadFindings').findings.length, 2);
  });

  it('a torn last line is a warning row, an unparseable line in the middle an error row (issue 40)', async () => {
    const file = join(tempDir(), 'torn.jsonl');
    copyFileSync(SAMPLE, file);
    appendFileSync(file, '{"id":"e13","kind":"step","na');
    const { s, host } = await open(file);
    const page = await rowsOf(s, host);
    const bad = page.rows.filter((r) => r.malformed).map((r) => [r.line, r.status, r.badge]);
    assert.deepEqual(bad, [[6, 'error', 'error'], [13, 'warning', 'warning']]);
  });

  it('pages rows in tree order with depth, columns, badges and the malformed row in line order', async () => {
    const { s, host } = await open();
    const page = await rowsOf(s, host);
    assert.deepEqual(
      page.rows.map((r) => [r.line, r.depth, r.kind]),
      [[1, 0, 'session_start'], [2, 1, 'user_message'], [3, 1, 'inference'], [4, 2, 'tool_call'], [5, 3, 'tool_result'], [6, 1, 'unparseable line'], [7, 1, 'approval'], [8, 1, 'inference'], [9, 2, 'tool_call'], [10, 2, 'tool_call'], [12, 1, 'session_end'], [11, 0, 'orphan']],
    );
    const inf = page.rows[2];
    assert.equal(inf.tokensIn, 1200);
    assert.equal(inf.durationMs, 1500);
    assert.equal(inf.offsetMs, 2000);
    assert.equal(inf.hasChildren, true);
    assert.equal(inf.expanded, true);
    assert.equal(page.rows[4].status, 'error');
    const bad = page.rows[5];
    assert.equal(bad.malformed, true);
    assert.equal(bad.node, malformedNode(0));
    assert.equal(bad.parent, 0, 'the bad line sits in the session, before the event that follows it in the file');
    assert.equal(bad.badge, 'error');
    assert.equal(page.rows[11].badge, 'warning', 'dangling parent');
  });

  it('clamps pages to the projection and to the page limit', async () => {
    const { s, host } = await open();
    await s.handle({ type: 'requestRows', rowsVersion: 0, start: 10, count: 50 });
    assert.equal(last(host, 'rows').rows.length, 2);
    await s.handle({ type: 'requestRows', rowsVersion: 0, start: 0, count: MAX_PAGE_ROWS * 10 });
    assert.equal(last(host, 'rows').rows.length, 12);
  });

  it('toggle and collapse-all change the version and the total', async () => {
    const { s, host } = await open();
    const v0 = last(host, 'init').rowsVersion;
    await s.handle({ type: 'toggle', node: 2 });
    const st = last(host, 'rowsState');
    assert.ok(st.rowsVersion > v0);
    assert.equal(st.totalRows, 10);
    assert.deepEqual(st.expandedLines, [1, 4, 8], 'expanded events by line, for the persisted state');
    await s.handle({ type: 'collapseAll' });
    assert.equal(last(host, 'rowsState').totalRows, 2, 'the session and the orphan: the bad line 6 is inside the session');
    await s.handle({ type: 'expandAll' });
    assert.equal(last(host, 'rowsState').expandedAll, true);
    assert.equal(last(host, 'rowsState').totalRows, 12);
  });

  it('select sends the detail with the exact line, parsed JSON, chat and findings', async () => {
    const { s, host } = await open();
    await s.handle({ type: 'select', node: 2 });
    await until(() => host.sent.some((m) => m.type === 'detail'), 'detail');
    const d = (last(host, 'detail') as DetailMessage).detail;
    assert.equal(d.line, 3);
    assert.equal(d.raw, readFileSync(SAMPLE, 'utf8').split('\n')[2]);
    assert.equal(d.parent?.line, 1);
    assert.deepEqual(d.ancestors.map((a) => a.line), [1]);
    assert.equal(d.childCount, 1);
    assert.equal((d.json as { id: string }).id, 'i1');
    assert.equal(d.messages[0].role, 'assistant');
    assert.deepEqual(d.messages[0].parts.map((p) => p.type), ['text', 'toolCall']);
    await s.handle({ type: 'select', node: malformedNode(0) });
    await until(() => (last(host, 'detail') as DetailMessage).detail.malformed, 'malformed detail');
    const bad = (last(host, 'detail') as DetailMessage).detail;
    assert.equal(bad.raw, 'this line is not json {');
    assert.equal(bad.findings[0].rule, 'parse/invalid-json');
  });

  it('find searches labels and the raw text, reveals the first match inside a collapsed branch', async () => {
    const { s, host } = await open();
    await s.handle({ type: 'collapseAll' });
    await s.handle({ type: 'find', query: 'ZEBRA42', caseSensitive: false });
    await until(() => { const f = last(host, 'findResults') as FindResultsMessage; return !f.searching && f.current === 1; }, 'find');
    const f = last(host, 'findResults');
    assert.equal(f.total, 1);
    const st = last(host, 'rowsState');
    assert.deepEqual(st.reveal, { row: 1, node: 1, select: true });
    assert.equal(st.totalRows, 8, 'the session was expanded to reveal it');
    const rows = await rowsOf(s, host);
    assert.equal(rows.rows[1].match, true);
    await s.handle({ type: 'find', query: 'tool_call', caseSensitive: true });
    await until(() => { const r = last(host, 'findResults'); return !r.searching && r.total === 3 && r.current === 1; }, 'find 2');
    await s.handle({ type: 'findStep', direction: -1 });
    assert.equal(last(host, 'findResults').current, 3);
    assert.equal(last(host, 'rowsState').reveal?.node, 8);
    await s.handle({ type: 'findStep', direction: 1 });
    assert.equal(last(host, 'findResults').current, 1);
    assert.equal(last(host, 'rowsState').reveal?.node, 3);
  });

  it('filters by status (with findings) and by kind, keeping ancestors as context', async () => {
    const { s, host } = await open();
    await s.handle({ type: 'setFilter', filter: { kinds: [], status: 'errors' } });
    let rows = (await rowsOf(s, host)).rows;
    assert.deepEqual(rows.map((r) => [r.line, r.context === true]), [[1, true], [3, true], [4, true], [5, false], [6, false]]);
    await s.handle({ type: 'setFilter', filter: { kinds: [], status: 'problems' } });
    rows = (await rowsOf(s, host)).rows;
    assert.deepEqual(rows.map((r) => r.line), [1, 3, 4, 5, 6, 7, 8, 10, 11]);
    await s.handle({ type: 'setFilter', filter: { kinds: ['inference'], status: 'all' } });
    rows = (await rowsOf(s, host)).rows;
    assert.deepEqual(rows.map((r) => r.line), [1, 3, 8]);
    await s.handle({ type: 'setFilter', filter: { kinds: [], status: 'all' } });
    assert.equal(last(host, 'rowsState').totalRows, 12);
  });

  it('check results add badges, the summary and per-line findings; revealLine selects the event', async () => {
    const { s, host, model } = await open();
    s.setCheckResults('verify', { file: model.path, format: 'generic', ok: false, checked: 11, findings: [{ rule: 'x/broken', severity: 'error', line: 8, message: 'broken here' }] });
    const cr = last(host, 'checkResults');
    assert.equal(cr.summary.firstErrorLine, 8);
    assert.equal(cr.findings[0].node, 6);
    const rows = (await rowsOf(s, host)).rows;
    assert.equal(rows.find((r) => r.line === 8)?.badge, 'error');
    await s.handle({ type: 'revealLine', line: 8 });
    await until(() => host.sent.some((m) => m.type === 'detail'), 'detail');
    assert.equal((last(host, 'detail') as DetailMessage).detail.findings[0].rule, 'x/broken');
  });

  it('a new model (append) keeps selection, expansion and scroll position by line', async () => {
    const dir = tempDir();
    const file = join(dir, 'live.jsonl');
    copyFileSync(SAMPLE, file);
    const { s, host } = await open(file);
    await s.handle({ type: 'toggle', node: 6, expand: false });
    await s.handle({ type: 'select', node: 3 });
    await s.handle({ type: 'viewport', topLine: 3 });
    appendFileSync(file, '{"type":"tool_call","id":"t9","parent_id":"i2","name":"late.tool","timestamp":"2026-01-01T00:00:09.000Z"}\n');
    appendFileSync(file, '{"type":"inference","id":"i9","parent_id":"s1","timestamp":"2026-01-01T00:00:10.000Z"}\n');
    host.sent.length = 0;
    s.setModel(await loadTrace(file, { format: 'generic' }), 'appended', '2 new events');
    const init = last(host, 'init');
    assert.equal(init.header.events, 13);
    assert.equal(init.selectedNode, 3);
    assert.equal(init.topRow, 2);
    assert.equal(init.fileState, 'appended');
    const rows = (await rowsOf(s, host)).rows;
    assert.equal(rows.find((r) => r.line === 8)?.expanded, false, 'the collapsed branch stays collapsed');
    assert.ok(!rows.some((r) => r.line === 13), 'its new child is hidden with it');
    assert.ok(rows.some((r) => r.line === 14), 'the new sibling appears');
  });

  it('restores a persisted state on the first ready (expansion, selection, filter)', async () => {
    const host = stubHost();
    const s = new ViewerSession(host);
    await s.handle({
      type: 'ready',
      state: { selectedLine: 4, topLine: 3, expandedLines: [1], expandedAll: false, detailTab: 'json', splitPosition: null, findQuery: '', filter: { kinds: [], status: 'all' }, showChecks: false, contentRaw: false, compactChains: false },
    });
    s.setModel(await loadTrace(SAMPLE, { format: 'generic' }));
    const init = last(host, 'init');
    assert.equal(init.selectedNode, 3);
    assert.equal(init.totalRows, 8, 'only the session is expanded: 2 top rows and its 6 children (one is the bad line 6)');
    assert.equal(init.compactChains, false, 'the persisted choice of the compact view is restored');
  });

  it('forwards host actions', async () => {
    const { s, host } = await open();
    await s.handle({ type: 'revealInTextEditor', line: 3 });
    await s.handle({ type: 'copy', text: 'abc' });
    await s.handle({ type: 'runChecks', mode: 'verify' });
    await s.handle({ type: 'requestBlob', requestId: 1, digest: 'a'.repeat(64), algorithm: 'sha256' });
    assert.deepEqual(host.calls, ['reveal:3', 'copy:abc', 'checks:verify']);
    assert.equal(last(host, 'blobContent').state, 'unresolved');
    await s.handle({ type: 'resolveId', requestId: 7, id: 'i1' });
    const info = last(host, 'idInfo');
    assert.equal(info.target?.line, 3);
    assert.deepEqual(info.mentionedBy.map((e) => e.line), [4]);
  });
});
