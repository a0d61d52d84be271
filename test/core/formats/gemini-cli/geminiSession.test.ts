// Issue 37: a Gemini CLI chat read as a conversation: session → turn → model message → tool call → result, each
// result under its call, parallel calls too; `$set` bookkeeping inside its turn; one line deleted, one or two rows.
import { strict as assert } from 'node:assert';
import { basename } from 'node:path';
import { diffTraces } from '../../../../src/core/diff/diffTraces';
import { loadTrace } from '../../../../src/core/loadTrace';
import type { TraceModel } from '../../../../src/core/traceModel';
import type { ChatPart } from '../../../../src/protocol';
import { traceToMarkdown } from '../../../../src/report/markdown/markdownTranscript';
import { buildTranscriptIndex } from '../../../../src/viewer/transcript/transcriptIndex';
import { transcriptPage } from '../../../../src/viewer/transcript/transcriptPage';
import { mutateLines } from '../../../fixtures/other/harness';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const CHATS = writerFiles('gemini-cli').filter((f) => basename(f).startsWith('session-'));
const SHELL_OK = CHATS.find((f) => f.includes('/shell-ok/'))!;

const indices = (m: TraceModel) => [...Array(m.events.size).keys()];

/**
 * The real shell-ok chat with its one call made twice in parallel, as Gemini CLI records it: the model message's
 * last version holds both calls (each with its result), and one user message answers both (two functionResponse
 * parts, each naming its call's id).
 */
function parallel(): string {
  return mutateLines(SHELL_OK, (ls) => ls.map((l) => {
    const v = JSON.parse(l);
    if (Array.isArray(v.toolCalls) && v.toolCalls.length === 1) {
      const second = JSON.parse(JSON.stringify(v.toolCalls[0]).split(v.toolCalls[0].id).join(`${v.toolCalls[0].id}_2`).replace(/hello/g, 'world'));
      v.toolCalls.push(second);
      return JSON.stringify(v);
    }
    if (v.type === 'user' && Array.isArray(v.content) && v.content[0]?.functionResponse) {
      const fr = v.content[0].functionResponse;
      v.content.push({ functionResponse: JSON.parse(JSON.stringify(fr).split(fr.id).join(`${fr.id}_2`).replace(/hello/g, 'world')) });
      return JSON.stringify(v);
    }
    return l;
  }), basename(SHELL_OK));
}

describe('gemini-cli: the session shape of a chat (issue 37)', () => {
  it('parallel calls: each call gets its own result, under it; the transcript and the Markdown hold each call and result once', async () => {
    const file = parallel();
    const m = await loadTrace(file);
    const calls = indices(m).filter((i) => m.events.kindOf(i) === 'tool_call');
    assert.equal(calls.length, 2);
    for (const c of calls) {
      const id = m.events.id(c)!;
      const results = indices(m).filter((i) => m.events.kindOf(i) === 'tool_result' && m.events.parent(i) === c);
      assert.equal(results.length, 1, `the result of ${id} under its call`);
    }
    const index = buildTranscriptIndex(m);
    const parts: ChatPart[] = (await transcriptPage(m, index, 0, 200, new Map())).flatMap((b) => b.messages.flatMap((x) => x.parts));
    const md = await traceToMarkdown(m);
    for (const c of calls) {
      const id = m.events.id(c)!;
      assert.equal(parts.filter((p) => p.type === 'toolCall' && p.id === id).length, 1, `call ${id}`);
      assert.equal(parts.filter((p) => p.type === 'toolResult' && p.id === id).length, 1, `result of ${id}`);
      assert.equal(md.split(`**Tool result** · \`${id}\``).length - 1, 1, `markdown: result of ${id}`);
    }
  });

  for (const file of CHATS) {
    it(`${file.slice(file.search(/gemini-cli-\d/))}: every $set line inside the session, none a root; at most 5 levels`, async () => {
      const m = await loadTrace(file);
      const roots = [...m.tree.roots];
      assert.equal(roots.length, 1, 'the session is the one root');
      for (const i of indices(m)) if (m.events.kindOf(i) === '$set') assert.ok(m.events.parent(i) >= 0, `line ${m.events.lineOf(i)}`);
      const d: number[] = [];
      for (const i of indices(m)) d.push(m.events.parent(i) < 0 ? 0 : d[m.events.parent(i)] + 1);
      assert.ok(Math.max(...d) <= 5, `depth ${Math.max(...d)}`);
    });
  }

  it('deleting one line of a real chat changes at most a couple of rows (a rewritten message: its versions)', async () => {
    const m = await loadTrace(SHELL_OK);
    const held = new Array<number>(m.events.size).fill(0);
    for (let i = m.events.size - 1; i >= 0; i--) if (m.events.parent(i) >= 0) held[m.events.parent(i)] += 1 + held[i];
    const heldAt = new Map<number, number>();
    for (const i of indices(m)) heldAt.set(m.events.lineOf(i), (heldAt.get(m.events.lineOf(i)) ?? 0) + held[i]);
    for (const { line, value } of jsonLines(SHELL_OK)) {
      if (line === 1) continue;
      const cut = mutateLines(SHELL_OK, (ls) => ls.filter((_, k) => k !== line - 1), basename(SHELL_OK));
      const d = await diffTraces(m, await loadTrace(cut));
      const rows = d.summary.inserted + d.summary.deleted + d.summary.changed;
      // A message's earlier version takes the place of its last: the message and its calls move to that line.
      assert.ok(rows <= 3 + 2 * (heldAt.get(line) ?? 0), `line ${line} (${value.type ?? Object.keys(value)[0]}): ${rows} rows`);
    }
  });
});
