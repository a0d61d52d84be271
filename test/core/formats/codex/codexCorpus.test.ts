import { strict as assert } from 'node:assert';
import { basename } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { mutateLines, nodes, runAll } from '../../../fixtures/other/harness';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const FILES = writerFiles('codex');
const isExec = (path: string) => jsonLines(path)[0].value.type === 'thread.started';
const ROLLOUTS = FILES.filter((f) => !isExec(f));
const EXECS = FILES.filter(isExec);

/** The turn a rollout line names, read the way the file writes it. */
function turnIdOf(v: any): string | null {
  const p = v.payload ?? {};
  return p.turn_id ?? p.internal_chat_message_metadata_passthrough?.turn_id ?? p.turn_attribution?.turn_id ?? null;
}

describe('codex: every file of the real-writer corpus', () => {
  it('finds rollouts and exec streams in the corpus', () => {
    assert.ok(ROLLOUTS.length >= 5, `${ROLLOUTS.length} rollouts`);
    assert.ok(EXECS.length >= 5, `${EXECS.length} exec streams`);
  });

  for (const file of FILES) {
    const name = basename(file);
    it(`${name}: detected as codex with its dialect; verify and check find no error`, async () => {
      const m = await loadTrace(file);
      assert.equal(m.format, 'codex');
      assert.ok(m.detection.confidence >= 0.9, `confidence ${m.detection.confidence}`);
      assert.equal(m.detection.dialect, isExec(file) ? 'exec-json' : 'rollout');
      assert.equal(summarize(m).dialect, m.detection.dialect);
      for (const mode of ['verify', 'check'] as const) {
        const bad = (await runAll(file, mode)).filter((f) => f.severity !== 'info');
        assert.deepEqual(bad, [], `${mode}: ${JSON.stringify(bad)}`);
      }
    });
  }
});

describe('codex rollouts: tree and totals from the file\'s own fields', () => {
  for (const file of ROLLOUTS) {
    it(`${basename(file)}: one top-level turn per turn_id, outputs under their call, totals from the last token_count`, async () => {
      const m = await loadTrace(file);
      const n = nodes(m);
      const lines = jsonLines(file);
      const byLine = new Map(n.map((x) => [x.line, x]));
      const firstLineOfTurn = new Map<string, number>();
      for (const { line, value } of lines) {
        const t = turnIdOf(value);
        if (t && !firstLineOfTurn.has(t)) firstLineOfTurn.set(t, line);
      }
      const session = lines.find((l) => l.value.type === 'session_meta')!.line;
      const topLevel = n.filter((x) => x.parentLine === session).map((x) => x.line);
      for (const turnLine of firstLineOfTurn.values()) assert.ok(topLevel.includes(turnLine), `turn at line ${turnLine} is under the session`);
      const calls = new Map<string, number>();
      for (const { line, value } of lines) {
        const p = value.payload;
        if (p.call_id && ['function_call', 'custom_tool_call', 'local_shell_call'].includes(p.type)) calls.set(p.call_id, line);
        const t = turnIdOf(value);
        if (p.type?.endsWith('_call_output')) {
          // Under its call, or under the UI's copy of its outcome (item_completed, written first), itself under the call.
          const parent = byLine.get(line)!.parentLine!;
          const copy = lines[parent - 1].value.payload;
          const under = copy.type === 'item_completed' && copy.item?.id === p.call_id ? byLine.get(parent)!.parentLine : parent;
          assert.equal(under, calls.get(p.call_id), `line ${line} under its call`);
        }
        else if (t) {
          // Walk up to the top level: it must be the turn the line names.
          let at = byLine.get(line)!;
          while (at.parentLine !== session && at.parentLine !== null) at = byLine.get(at.parentLine)!;
          assert.equal(at.line, firstLineOfTurn.get(t), `line ${line} is in turn ${t}`);
        }
      }
      const counts = lines.filter((l) => l.value.payload.type === 'token_count' && l.value.payload.info?.total_token_usage);
      const total = counts[counts.length - 1].value.payload.info.total_token_usage;
      // A fork's running totals go on from its origin's: the origin's share (the first running total less its response) is not its own.
      const first = counts[0].value.payload.info;
      const fork = lines[0].value.payload.forked_from_id !== undefined;
      const base = (k: string) => (fork ? first.total_token_usage[k] - first.last_token_usage[k] : 0);
      const s = summarize(m);
      assert.equal(s.totals.inputTokens, total.input_tokens - base('input_tokens'));
      assert.equal(s.totals.outputTokens, total.output_tokens - base('output_tokens'));
      assert.equal(s.totals.toolCalls, calls.size);
    });
  }

  it('a call whose output says "Process exited with code N" (N ≠ 0) is marked error, with its output', async () => {
    let seen = 0;
    for (const file of ROLLOUTS) {
      const m = await loadTrace(file);
      const calls = new Map<string, number>();
      for (const { line, value } of jsonLines(file)) {
        const p = value.payload;
        if (p.type === 'function_call') calls.set(p.call_id, line);
        if (p.type !== 'function_call_output' || typeof p.output !== 'string') continue;
        const code = /Process exited with code (\d+)/.exec(p.output);
        if (!code) continue;
        const expected = code[1] === '0' ? 'ok' : 'error';
        assert.equal(m.events.get(line - 1).status, expected, `${basename(file)}:${line}`);
        assert.equal(m.events.get(calls.get(p.call_id)! - 1).status, expected, `its call, line ${calls.get(p.call_id)}`);
        seen++;
      }
    }
    assert.ok(seen >= 3, `${seen} outputs with exit codes`);
  });
});

describe('codex 0.17x rollouts: a step reads as what it is, not as its UI copy (issue 37)', () => {
  /** A label's text after `head: `, without the ellipsis a cut label ends with, spaces collapsed. */
  const textOf = (label: string, head: string) => label.slice(head.length + 2).replace(/…$/, '').trim();
  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  const HEADS: Record<string, string> = { Reasoning: 'reasoning', AgentMessage: 'message assistant', UserMessage: 'message user' };

  for (const file of ROLLOUTS) {
    const lines = jsonLines(file);
    if (!lines.some((l) => l.value.payload?.type === 'item_completed')) continue;
    it(`${basename(file)}: each item_completed row is labelled by its item's content, as the history's twin is`, async () => {
      const m = await loadTrace(file);
      const n = nodes(m);
      const byLine = new Map(n.map((x) => [x.line, x]));
      let steps = 0;
      for (const { line, value } of lines) {
        const p = value.payload;
        if (value.type !== 'event_msg' || p.type !== 'item_completed') continue;
        const row = byLine.get(line)!;
        assert.ok(!row.label.startsWith('item_completed'), `line ${line} (${p.item.type}) reads "${row.label}"`);
        const item = p.item;
        if (item.type in HEADS) {
          const head = HEADS[item.type];
          const text = flat(item.type === 'Reasoning' ? item.summary_text.join(' ') : item.content.map((c: any) => c.text).join(' '));
          assert.ok(row.label.startsWith(`${head}: `), `line ${line}: "${row.label}" starts with "${head}: "`);
          assert.ok(text.startsWith(textOf(row.label, head)), `line ${line}: "${row.label}" shows the start of "${text}"`);
          // Its twin in the model history (the same id, or for a prompt the same text) reads the same.
          const twin = lines.find((l) => l.value.type === 'response_item' && (l.value.payload.id === item.id || (item.type === 'UserMessage' && l.value.payload.role === 'user' && flat(l.value.payload.content.map((c: any) => c.text).join(' ')) === text)));
          if (twin) assert.equal(row.label, byLine.get(twin.line)!.label, `line ${line} and its twin at line ${twin.line}`);
          // A model step's row is its first output, under the turn: the UI copy when Codex wrote it first.
          if (item.type !== 'UserMessage' && n.some((c) => c.parentLine === line)) steps++;
        } else if (item.type === 'CommandExecution') {
          assert.ok(row.label.startsWith(`command exit ${item.exit_code}`), `line ${line}: "${row.label}"`);
          assert.ok(row.label.includes(item.command[item.command.length - 1]), `line ${line}: "${row.label}" shows the command`);
        }
      }
      assert.ok(steps >= 1, `${steps} step rows were UI copies`);
    });
  }
});

describe('codex exec --json: tree and totals', () => {
  for (const file of EXECS) {
    it(`${basename(file)}: thread → turns → items, an item's completion under its start, totals from the last turn.completed`, async () => {
      const m = await loadTrace(file);
      const byLine = new Map(nodes(m).map((x) => [x.line, x]));
      let thread = 0;
      let turn = 0;
      const started = new Map<string, number>();
      let usage: any = null;
      for (const { line, value } of jsonLines(file)) {
        const parent = byLine.get(line)!.parentLine;
        if (value.type === 'thread.started') (thread = line), assert.equal(parent, null);
        else if (value.type === 'turn.started') (turn = line), started.clear(), assert.equal(parent, thread);
        else if (value.item && started.has(value.item.id)) assert.equal(parent, started.get(value.item.id), `line ${line}`);
        // Under the turn, or (issue 37: model steps) under the first item of its response, itself under the turn.
        else assert.ok(parent === (turn || thread) || (value.item && turn > 0 && byLine.get(parent!)?.parentLine === turn), `line ${line}`);
        if (value.type === 'item.started') started.set(value.item.id, line);
        if (value.type === 'turn.completed') usage = value.usage;
        if (value.type === 'item.completed' && value.item.type === 'command_execution') {
          const failed = value.item.status === 'failed' || (value.item.exit_code ?? 0) !== 0;
          assert.equal(m.events.get(line - 1).status, failed ? 'error' : 'ok', `line ${line}`);
        }
      }
      const s = summarize(m);
      assert.equal(s.totals.inputTokens, usage.input_tokens);
      assert.equal(s.totals.outputTokens, usage.output_tokens);
    });
  }
});

describe('codex mutations of real files are found at the right line', () => {
  const rollout = ROLLOUTS.find((f) => jsonLines(f).some((l) => l.value.payload.type === 'function_call'))!;
  const exec = EXECS.find((f) => jsonLines(f).some((l) => l.value.type === 'item.started'))!;
  const rules = async (file: string, mode: 'verify' | 'check') => (await runAll(file, mode)).map((f) => `${f.rule}@${f.line}`);

  it('a line cut from a 0.17x rollout breaks the ordinals at that line', async () => {
    const cut = mutateLines(rollout, (ls) => ls.filter((_, i) => i !== 6), basename(rollout));
    assert.ok((await rules(cut, 'verify')).includes('codex/ordinal-sequence@7'));
  });

  it('a call removed leaves its output unpaired, at the output\'s line', async () => {
    const lines = jsonLines(rollout);
    const call = lines.find((l) => l.value.payload.type === 'function_call')!;
    const output = lines.find((l) => l.value.payload.type === 'function_call_output' && l.value.payload.call_id === call.value.payload.call_id)!;
    const cut = mutateLines(rollout, (ls) => ls.filter((_, i) => i !== call.line - 1), basename(rollout));
    assert.ok((await rules(cut, 'check')).includes(`codex/call-pairing@${output.line - 1}`));
  });

  it('a torn last line is an error at that line', async () => {
    const torn = mutateLines(rollout, (ls) => [...ls.slice(0, -1), ls[ls.length - 1].slice(0, 40)], basename(rollout));
    const f = (await runAll(torn, 'verify')).find((x) => x.severity === 'error');
    assert.equal(f?.line, jsonLines(rollout).length);
  });

  it('the session header removed: session-meta-first at line 1', async () => {
    const cut = mutateLines(rollout, (ls) => ls.slice(1), basename(rollout));
    assert.ok((await rules(cut, 'verify')).includes('codex/session-meta-first@1'));
  });

  it('an exec stream without its turn.completed, or without thread.started', async () => {
    const lines = jsonLines(exec);
    const turn = lines.find((l) => l.value.type === 'turn.started')!.line;
    const noEnd = mutateLines(exec, (ls) => ls.filter((l) => !l.includes('"turn.completed"')), 'exec.jsonl');
    assert.ok((await rules(noEnd, 'check')).includes(`codex/exec-turn-unfinished@${turn}`));
    const noHead = mutateLines(exec, (ls) => ls.slice(1), 'exec.jsonl');
    assert.ok((await rules(noHead, 'verify')).includes('codex/exec-thread-first@1'));
    const started = lines.find((l) => l.value.type === 'item.started')!;
    const noDone = mutateLines(exec, (ls) => ls.filter((l, i) => !(i + 1 > started.line && l.includes('"item.completed"') && l.includes(`"id":"${started.value.item.id}"`))), 'exec.jsonl');
    assert.ok((await rules(noDone, 'check')).includes(`codex/exec-item-unfinished@${started.line}`));
  });
});

describe('codex exec --json: bad lines and failed turns', () => {
  const exec = EXECS[0];

  it('a line that is not an object is an error at its line, and the rest still reads', async () => {
    const bad = mutateLines(exec, (ls) => [ls[0], '[1,2]', ...ls.slice(1)], 'exec.jsonl');
    const m = await loadTrace(bad);
    assert.equal(m.format, 'codex');
    assert.equal(m.events.get(1).status, 'error');
    assert.deepEqual((await runAll(bad, 'verify')).map((f) => `${f.rule}@${f.line}`), ['codex/line-json@2']);
  });

  it('turn.failed marks its turn as failed', async () => {
    const failed = mutateLines(exec, (ls) => ls.map((l) => (l.includes('"turn.completed"') ? '{"type":"turn.failed","error":{"message":"stream disconnected before completion"}}' : l)), 'exec.jsonl');
    const m = await loadTrace(failed);
    const lines = jsonLines(failed);
    const turn = lines.find((l) => l.value.type === 'turn.started')!.line;
    const fail = lines.find((l) => l.value.type === 'turn.failed')!.line;
    assert.equal(m.events.get(turn - 1).status, 'error');
    assert.equal(m.events.get(fail - 1).label, 'turn.failed: stream disconnected before completion');
    assert.deepEqual((await runAll(failed, 'check')).filter((f) => f.severity !== 'info'), [], 'a failed turn is finished');
  });
});
