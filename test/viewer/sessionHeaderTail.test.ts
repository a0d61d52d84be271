// Live tail (issue 14 item 6): an append is shown with the header it had plus the new counts, kinds and filter
// values at once, and the whole header follows in a `header` message; a reload still sends the whole header.
import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTraceReader, TraceReader } from '../../src/core/traceReader';
import type { HeaderMessage, HostMessage, InitMessage } from '../../src/protocol';
import { headerOf, kindsOf } from '../../src/viewer/sessionModelInfo';
import { filterValuesOf } from '../../src/viewer/sessionFilter';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { tempDir } from '../helpers/tmp';
import { generateMurmurTrace } from '../bench/generateMurmur';


/** A tool call of a tool the trace never used, under the trace's first tool call's parent, with a new id. */
function newToolCall(file: string, k: number): string {
  const call = readFileSync(file, 'utf8').split('\n').find((l) => l.includes('"event_type":"tool_call"'))!;
  const v = JSON.parse(call) as Record<string, unknown>;
  return JSON.stringify({ ...v, event_id: `evt_tail${k}0000000000000000000000000`, tool_name: `grep${k}`, tool_call_id: `toolu_t${k}`, timestamp: Number(v.timestamp) + 1000 * k });
}

async function openSession(): Promise<{ file: string; reader: TraceReader; session: ViewerSession; sent: HostMessage[] }> {
  // Long enough for detection to be settled (a file of a few lines is read again whole on an append).
  const file = join(tempDir('atv-tail-header-'), 'trace.jsonl');
  await generateMurmurTrace(file, 400);
  const reader = await openTraceReader(file);
  const sent: HostMessage[] = [];
  const session = new ViewerSession({ post: (m: HostMessage) => sent.push(m) } as never);
  session.setModel(reader.model, 'ready', null);
  await session.handle({ type: 'ready', state: null });
  return { file, reader, session, sent };
}

const lastOf = <T extends HostMessage['type']>(sent: HostMessage[], type: T) => [...sent].reverse().find((m) => m.type === type) as Extract<HostMessage, { type: T }> | undefined;

async function waitFor<T>(f: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('viewer session: the header of a growing trace (issue 14 item 6)', () => {
  it('shows an append with the last header and the new counts, kinds and tools at once, then the whole header', async () => {
    const { file, reader, session, sent } = await openSession();
    const first = lastOf(sent, 'init')!;
    appendFileSync(file, newToolCall(file, 1) + '\n');
    const r = await reader.append();
    assert.equal(r.kind, 'appended');
    if (r.kind !== 'appended') return;
    sent.length = 0;
    session.setModel(r.model, 'appended', '1 new event');
    const init = lastOf(sent, 'init') as InitMessage;
    assert.equal(init.header.events, first.header.events + 1);
    assert.equal(init.header.lines, r.model.lineCount);
    assert.equal(init.header.toolCalls, first.header.toolCalls, 'the tool-call count is the one last computed until the header follows');
    assert.ok(init.filterValues?.tool.includes('grep1'), 'the new tool is offered by the filter at once');
    assert.deepEqual(init.kinds, kindsOf(r.model));
    assert.equal(lastOf(sent, 'header'), undefined, 'the whole header comes after the rows, not with them');
    const header = await waitFor(() => lastOf(sent, 'header'), 'the header message') as HeaderMessage;
    assert.equal(header.modelVersion, init.modelVersion);
    assert.deepEqual(header.header, headerOf(r.model));
    assert.equal(header.header.toolCalls, first.header.toolCalls + 1);
    assert.deepEqual(header.kinds, kindsOf(r.model));
    assert.deepEqual(header.filterValues, filterValuesOf(r.model));
    session.dispose();
  });

  it('sends the whole header with a reload, and nothing after a closed viewer', async () => {
    const { file, reader, session, sent } = await openSession();
    appendFileSync(file, newToolCall(file, 2) + '\n');
    const r = await reader.append();
    assert.equal(r.kind, 'appended');
    if (r.kind !== 'appended') return;
    sent.length = 0;
    session.setModel(r.model, 'ready', 'The file was rewritten on disk and has been reloaded.');
    assert.deepEqual((lastOf(sent, 'init') as InitMessage).header, headerOf(r.model));
    // An append, then the viewer closes before its header was computed: nothing is posted afterwards.
    appendFileSync(file, newToolCall(file, 3) + '\n');
    const r2 = await reader.append();
    assert.equal(r2.kind, 'appended');
    if (r2.kind !== 'appended') return;
    session.setModel(r2.model, 'appended', '1 new event');
    session.dispose();
    sent.length = 0;
    await new Promise((res) => setTimeout(res, 400));
    assert.deepEqual(sent.map((m) => m.type), []);
  });
});
