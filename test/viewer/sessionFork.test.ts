import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { loadTrace } from '../../src/core/loadTrace';
import type { HeaderMessage, HostMessage, InitMessage, RowsMessage, RowsStateMessage } from '../../src/protocol';
import { parseViewMessage } from '../../src/protocol/validate';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { recordingHost } from '../helpers/viewerHost';
import { until } from '../helpers/until';
import { originFact } from '../../webview/headerFacts';
import { writerFiles } from '../helpers/writerCorpus';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const linesOf = (path: string): Obj[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));

/** The real `claude -p --resume <id> --fork-session` case: the fork (its lines name the origin) and the origin. */
const files = writerFiles('claude-code').filter((p) => p.split(/[\\/]/).includes('fork') && /projects[\\/][^\\/]+[\\/][0-9a-f-]{36}\.jsonl$/.test(p));
const FORK = files.find((p) => linesOf(p).some((v) => typeof v.requestSessionId === 'string' && v.requestSessionId !== v.sessionId))!;
const ORIGIN = files.find((p) => p !== FORK)!;
const ORIGIN_ID = linesOf(ORIGIN).find((v) => typeof v.sessionId === 'string')!.sessionId as string;

describe('viewer: a forked Claude Code session (real files)', () => {
  it('the header says what it was forked from, links to the origin\'s file and opens it', async () => {
    const host = recordingHost();
    const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
    await s.handle({ type: 'ready', state: null });
    s.setModel(await loadTrace(FORK));
    const h = await until(() => host.sent.find((m): m is HeaderMessage => m.type === 'header' && m.header.origin?.hasFile === true));
    const o = h.header.origin!;
    assert.equal(o.sessionId, ORIGIN_ID);
    assert.ok(o.inheritedEvents > 0 && o.inheritedLines !== null);
    const fact = originFact(h.header)!;
    assert.equal(fact.text, `forked from ${ORIGIN_ID.slice(0, 8)}…`);
    assert.match(fact.title, new RegExp(`forked from session ${ORIGIN_ID}`));
    assert.match(fact.title, /not counted again/);
    assert.equal(fact.inherited, `${o.inheritedEvents} inherited, not counted again`);
    await s.handle({ type: 'openOriginFile' });
    await until(() => host.opened[0]);
    assert.deepEqual(host.opened, [ORIGIN]);
    s.dispose();
  });

  it('the inherited history is one collapsed row; the fork\'s own turn is shown open', async () => {
    const host = recordingHost();
    const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
    await s.handle({ type: 'ready', state: null });
    const model = await loadTrace(FORK);
    s.setModel(model);
    const st = [...host.sent].reverse().find((m) => m.type === 'rowsState' || m.type === 'init') as RowsStateMessage | InitMessage;
    await s.handle({ type: 'requestRows', rowsVersion: st.rowsVersion, start: 0, count: 2000 });
    const rows = ([...host.sent].reverse().find((m) => m.type === 'rows') as RowsMessage).rows;
    const first = model.origin!.inherited!.firstLine;
    const boundary = rows.find((r) => r.line === first)!;
    assert.match(boundary.label, /^inherited history: /);
    assert.deepEqual([boundary.hasChildren, boundary.expanded], [true, false], 'collapsed');
    const inherited = (l: number) => l > first && l <= model.origin!.inherited!.lastLine;
    assert.deepEqual(rows.filter((r) => inherited(r.line)).map((r) => r.line), [], 'the copies are not rows until it is opened');
    assert.ok(rows.some((r) => r.line > model.origin!.inherited!.lastLine && r.depth > 0), 'the fork\'s own turn is expanded');
    s.dispose();
  });

  it('the file that is no fork gets no origin fact, and the webview names no file', async () => {
    const host = recordingHost();
    const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
    await s.handle({ type: 'ready', state: null });
    s.setModel(await loadTrace(ORIGIN));
    await new Promise((r) => setTimeout(r, 200));
    const init = host.sent.find((m): m is InitMessage => m.type === 'init')!;
    assert.equal(originFact(init.header), null);
    await s.handle({ type: 'openOriginFile' });
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(host.opened, []);
    assert.ok(parseViewMessage('viewer', { type: 'openOriginFile' }));
    const named = parseViewMessage('viewer', { type: 'openOriginFile', path: '/etc/passwd' });
    assert.ok(named === null || !('path' in named), 'a path the webview sends is never taken');
    s.dispose();
  });
});
