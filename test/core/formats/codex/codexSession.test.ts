// Issue 37: a Codex rollout read as a conversation. Session → turn → model step → tool call → output, each output
// under its call, and each message or reasoning step Codex writes twice (response_item + event_msg) shown once: the
// second copy under the first. Checked on every real-writer rollout against what the raw lines say, by deleting
// lines of a real rollout and diffing, and on failed calls built from real lines.
import { strict as assert } from 'node:assert';
import { basename } from 'node:path';
import { diffTraces } from '../../../../src/core/diff/diffTraces';
import { loadTrace } from '../../../../src/core/loadTrace';
import type { TraceModel } from '../../../../src/core/traceModel';
import { buildTranscriptIndex } from '../../../../src/viewer/transcript/transcriptIndex';
import { mutateLines } from '../../../fixtures/other/harness';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const ROLLOUTS = writerFiles('codex').filter((f) => basename(f).startsWith('rollout-'));
const rel = (f: string) => f.slice(f.search(/codex-\d/));

function depths(m: TraceModel): number[] {
  const out: number[] = [];
  for (let i = 0; i < m.events.size; i++) out.push(m.events.parent(i) < 0 ? 0 : out[m.events.parent(i)] + 1);
  return out;
}

/** The line shown as the parent of `line` (events are one per rollout line). */
const parentLine = (m: TraceModel, line: number) => (m.events.parent(line - 1) < 0 ? null : m.events.lineOf(m.events.parent(line - 1)));

/** Events removed, added or changed between the file and the file without line `k` (1-based). */
async function rowsChangedWithout(file: string, k: number): Promise<number> {
  const cut = mutateLines(file, (ls) => ls.filter((_, i) => i !== k - 1), basename(file));
  const d = await diffTraces(await loadTrace(file), await loadTrace(cut));
  return d.summary.inserted + d.summary.deleted + d.summary.changed;
}

/** Pairs of lines that copy one message or reasoning step, from the raw lines: the item id both carry. */
function twinPairs(lines: { line: number; value: any }[]): [number, number][] {
  const byId = new Map<string, number[]>();
  for (const { line, value: v } of lines) {
    const p = v.payload ?? {};
    const id = v.type === 'response_item' && (p.type === 'reasoning' || (p.type === 'message' && p.role === 'assistant')) ? p.id
      : v.type === 'event_msg' && p.type === 'item_completed' && ['Reasoning', 'AgentMessage'].includes(p.item?.type) ? p.item.id : null;
    if (typeof id === 'string') byId.set(id, [...(byId.get(id) ?? []), line]);
  }
  return [...byId.values()].filter((ls) => ls.length === 2).map(([a, b]) => [a, b]);
}

describe('codex: the session shape of every real-writer rollout (issue 37)', () => {
  it('finds rollouts', () => assert.ok(ROLLOUTS.length >= 4, `${ROLLOUTS.length}`));

  for (const file of ROLLOUTS) {
    it(`${rel(file)}: at most 6 levels; outputs under their calls; each copy under its twin, hidden from the transcript; a step holds its response`, async () => {
      const m = await loadTrace(file);
      const lines = jsonLines(file);
      assert.ok(Math.max(...depths(m)) <= 6, `depth ${Math.max(...depths(m))}`);
      const calls = new Map<string, number>();
      for (const { line, value: v } of lines) {
        const p = v.payload ?? {};
        if (v.type === 'response_item' && ['function_call', 'custom_tool_call', 'local_shell_call'].includes(p.type)) calls.set(p.call_id, line);
        if (v.type === 'response_item' && String(p.type).endsWith('_call_output')) {
          // Under the call, or under the UI's copy of the outcome, written first, under the call.
          const up = parentLine(m, line)!;
          assert.ok(up === calls.get(p.call_id) || parentLine(m, up) === calls.get(p.call_id), `line ${line}: output under call line ${calls.get(p.call_id)}`);
        }
      }
      const blocks = new Set(Array.from(buildTranscriptIndex(m).nodes, (i) => m.events.lineOf(i)));
      const pairs = twinPairs(lines);
      for (const [first, second] of pairs) {
        assert.equal(parentLine(m, second), first, `line ${second} under its twin, line ${first}`);
        assert.ok(blocks.has(first) && !blocks.has(second), `lines ${first}/${second}: one transcript block`);
      }
      // The recorded link stays the structure the file implies: an output's is its call.
      for (const { line, value: v } of lines) {
        if (v.type === 'response_item' && String(v.payload.type).endsWith('_call_output')) assert.equal(m.events.lineOf(m.events.linkOf(line - 1)), calls.get(v.payload.call_id));
      }
      // A response's items (reasoning, message, calls) between two inputs hang under its first.
      let step: number | null = null;
      for (const { line, value: v } of lines) {
        const p = v.payload ?? {};
        const input = (v.type === 'response_item' && (String(p.type).endsWith('_output') || (p.type === 'message' && p.role === 'user'))) || (v.type === 'event_msg' && p.type === 'task_started');
        if (input) step = null;
        const output = v.type === 'response_item' && (p.type === 'reasoning' || p.type === 'function_call' || (p.type === 'message' && p.role === 'assistant'));
        if (!output || pairs.some(([, b]) => b === line)) continue;
        if (step === null) step = pairs.find(([, b]) => b === line)?.[0] ?? line;
        else assert.equal(parentLine(m, line), step, `line ${line} in the step of line ${step}`);
      }
    });
  }
});

describe('codex: deleting one line of a real rollout changes one or two rows of the diff (issue 37)', () => {
  const file = ROLLOUTS.find((f) => f.includes('outside') || f.includes('codex-0.171/'))!;

  it('any line but the session, a turn and its turn_context: one row, or for a line that holds others those too', async () => {
    const m = await loadTrace(file);
    const held = new Array<number>(m.events.size).fill(0);
    for (let i = m.events.size - 1; i >= 0; i--) if (m.events.parent(i) >= 0) held[m.events.parent(i)] += 1 + held[i];
    let one = 0;
    for (const { line, value } of jsonLines(file)) {
      // A turn_context names the model of every later line: without it they all change (their model, not their place).
      if (value.type === 'session_meta' || value.type === 'turn_context' || value.payload?.type === 'task_started') continue;
      const rows = await rowsChangedWithout(file, line);
      if (held[line - 1] === 0) assert.ok(rows <= 2, `line ${line} (${value.payload?.type ?? value.type}): ${rows} rows`);
      else assert.ok(rows <= 2 + 2 * held[line - 1], `line ${line} (${value.payload?.type ?? value.type}): ${rows} rows`);
      if (rows === 1) one++;
    }
    assert.ok(one >= 12, `${one} lines`);
  });
});

describe('codex: a call Codex did not run is a failed call (issue 37)', () => {
  // The corpus holds no rejected patch and no unsupported tool: these inputs are the real shell-ok rollout with the
  // call's output text changed to what Codex writes for them (codex-rs gives the model `unsupported call: <name>`
  // for a tool it does not have and `patch rejected by user` for a refused patch, as the output of the call).
  const shellOk = ROLLOUTS.find((f) => f.includes('/shell-ok/'))!;
  const withOutput = (text: string, asPatch: boolean) =>
    mutateLines(shellOk, (ls) => ls.map((l) => {
      const v = JSON.parse(l);
      if (v.type !== 'response_item') return l;
      if (v.payload.type === 'function_call_output') {
        v.payload.output = text;
        if (asPatch) v.payload.type = 'custom_tool_call_output';
      } else if (v.payload.type === 'function_call' && asPatch) {
        Object.assign(v.payload, { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch' });
        delete v.payload.arguments;
      } else return l;
      return JSON.stringify(v);
    }), basename(shellOk));

  it('the real file: no failed call', async () => {
    assert.equal((await loadTrace(shellOk)).formatTotals.errors, 0);
  });

  for (const [what, text, asPatch] of [
    ['an unsupported tool call', 'unsupported call: exec_command', false],
    ['a rejected apply_patch', 'patch rejected by user', true],
    ['a patch that failed verification', 'apply_patch verification failed: invalid hunk at line 2', true],
  ] as const) {
    it(`${what}: its output and its call are errors, counted once`, async () => {
      const m = await loadTrace(withOutput(text, asPatch));
      assert.equal(m.formatTotals.errors, 1);
      const out = [...Array(m.events.size).keys()].find((i) => m.events.kindOf(i).endsWith('_call_output'))!;
      assert.equal(m.events.statusOf(out), 'error');
      const call = [...Array(m.events.size).keys()].find((i) => ['function_call', 'custom_tool_call'].includes(m.events.kindOf(i)))!;
      assert.equal(m.events.statusOf(call), 'error');
    });
  }
});

describe('codex exec --json: the session shape (issue 37)', () => {
  const EXECS = writerFiles('codex').filter((f) => !basename(f).startsWith('rollout-'));

  for (const file of EXECS) {
    it(`${rel(file)}: turn → step → item → its completion; a response's items under its first, until a tool item completes`, async () => {
      const m = await loadTrace(file);
      assert.ok(Math.max(...depths(m)) <= 4, `depth ${Math.max(...depths(m))}`);
      const first = new Map<string, number>();
      let step: number | null = null;
      for (const { line, value: v } of jsonLines(file)) {
        if (v.type === 'turn.started') (first.clear(), (step = null));
        const id = v.item?.id;
        if (typeof id !== 'string') continue;
        if (first.has(id)) assert.equal(parentLine(m, line), first.get(id), `line ${line}: under its item's first event`);
        else {
          first.set(id, line);
          if (step === null) step = line;
          else assert.equal(parentLine(m, line), step, `line ${line} in the step of line ${step}`);
        }
        if (v.type === 'item.completed' && ['command_execution', 'file_change', 'mcp_tool_call', 'web_search'].includes(v.item.type)) step = null;
      }
    });
  }
});
