import { strict as assert } from 'node:assert';
import { basename } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { linkLines, mutateLines, runAll } from '../../../fixtures/other/harness';
import { treeJson } from '../../../../src/cli/treeJson';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const FILES = writerFiles('claude-code');
const isStream = (path: string) => jsonLines(path)[0].value.session_id !== undefined;
const STREAMS = FILES.filter(isStream);
const TRANSCRIPTS = FILES.filter((f) => !isStream(f));
const rel = (f: string) => f.slice(f.indexOf('claude-code-'));

/** Input as the viewer counts it: what the model read, cached and cache-writing input included. */
const inputOf = (u: any) => u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);

describe('claude-code: every file of the real-writer corpus', () => {
  it('finds transcripts and stream-json files in the corpus', () => {
    assert.ok(TRANSCRIPTS.length >= 6, `${TRANSCRIPTS.length} transcripts`);
    assert.ok(STREAMS.length >= 6, `${STREAMS.length} streams`);
  });

  for (const file of FILES) {
    it(`${rel(file)}: claude-code with its dialect; verify and check find no error or warning`, async () => {
      const m = await loadTrace(file);
      assert.equal(m.format, 'claude-code');
      assert.ok(m.detection.confidence >= 0.9, `confidence ${m.detection.confidence}`);
      assert.equal(m.detection.dialect, isStream(file) ? 'stream-json' : 'transcript');
      for (const mode of ['verify', 'check'] as const) {
        const bad = (await runAll(file, mode)).filter((f) => f.severity !== 'info');
        assert.deepEqual(bad, [], `${mode}: ${JSON.stringify(bad)}`);
      }
    });
  }
});

describe('claude-code transcripts: the recorded links are the file\'s uuid/parentUuid tree', () => {
  for (const file of TRANSCRIPTS) {
    it(`${rel(file)}: links by parentUuid (logicalParentUuid across a compaction), tree --json parentId as written; totals from cost-state`, async () => {
      const m = await loadTrace(file);
      const lines = jsonLines(file);
      const lineOfUuid = new Map<string, number>();
      for (const { line, value } of lines) if (value.uuid && !lineOfUuid.has(value.uuid)) lineOfUuid.set(value.uuid, line);
      const links = linkLines(m);
      const json = new Map(treeJson(m).nodes.map((x) => [x.line, x]));
      for (const { line, value } of lines) {
        const parent = value.parentUuid ?? value.logicalParentUuid ?? null;
        assert.equal(links[line - 1], parent === null ? null : lineOfUuid.get(parent) ?? null, `line ${line}`);
        assert.equal(json.get(line)!.parentId, parent, `line ${line}: tree --json parentId`);
      }
      const costs = lines.filter((l) => l.value.type === 'cost-state');
      if (costs.length === 0) return;
      const usage = Object.values(costs[costs.length - 1].value.modelUsage) as any[];
      // A fork's cost-state goes on from its origin's: the responses it copies (`requestSessionId`, the origin's id) are the origin's.
      const copied = new Map<string, any>();
      for (const { value } of lines) if (value.type === 'assistant' && value.requestSessionId && value.requestSessionId !== value.sessionId && value.message?.usage) copied.set(value.message.id, value.message.usage);
      const copiedIn = [...copied.values()].reduce((a, u) => a + u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens, 0);
      const copiedOut = [...copied.values()].reduce((a, u) => a + u.output_tokens, 0);
      const s = summarize(m);
      assert.equal(s.totals.inputTokens, usage.reduce((a, u) => a + u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens, 0) - copiedIn);
      assert.equal(s.totals.outputTokens, usage.reduce((a, u) => a + u.outputTokens, 0) - copiedOut);
      // Its recorded cost includes the origin's: kept apart, not the session's cost.
      assert.equal(copied.size > 0 ? s.totals.costUsdWithOrigin : s.totals.costUsd, costs[costs.length - 1].value.totalCostUSD);
    });
  }
});

describe('claude-code stream-json: runs, subagents under their tool call, totals from the result lines', () => {
  for (const file of STREAMS) {
    it(`${rel(file)}: linked to its run's init, or by parent_tool_use_id to the tool_use; totals from the results`, async () => {
      const m = await loadTrace(file);
      const links = linkLines(m);
      assert.ok(treeJson(m).nodes.every((x) => x.parentId === null), 'stream-json names no parent ids');
      const toolUseLine = new Map<string, number>();
      const taskToolUse = new Map<string, string>();
      let init: number | null = null;
      const inits: number[] = [];
      const results: any[] = [];
      for (const { line, value } of jsonLines(file)) {
        if (value.task_id && value.tool_use_id) taskToolUse.set(value.task_id, value.tool_use_id);
        const call = value.parent_tool_use_id ?? (value.type === 'system' ? value.tool_use_id ?? taskToolUse.get(value.task_id) : null);
        // A result ends the run its result_index counts (0: the first init), else the current one.
        const run: number | null = value.type === 'result' && inits[value.result_index] !== undefined ? inits[value.result_index] : init;
        if (value.type === 'system' && value.subtype === 'init') (init = line), inits.push(line), assert.equal(links[line - 1], null);
        else assert.equal(links[line - 1], call ? toolUseLine.get(call) : run, `line ${line}`);
        if (value.type === 'assistant') for (const b of value.message.content) if (b.type === 'tool_use' && !toolUseLine.has(b.id)) toolUseLine.set(b.id, line);
        if (value.type === 'result') results.push(value);
      }
      const s = summarize(m);
      // The results' usage covers the runs' own requests. When the last result's session totals (modelUsage) hold
      // exactly the input of every response the file streamed, the file is the whole session and those totals are its
      // own: a background subagent's output is in them only (its streamed lines carry placeholders).
      const responses = new Map<string, number>();
      for (const { value } of jsonLines(file)) if (value.type === 'assistant' && value.message?.usage) responses.set(value.message.id, inputOf(value.message.usage));
      const session = Object.values(results[results.length - 1].modelUsage ?? {}) as any[];
      const sessionIn = session.reduce((a, u) => a + u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens, 0);
      const whole = session.length > 0 && sessionIn === [...responses.values()].reduce((a, x) => a + x, 0);
      const resultsIn = results.reduce((a, r) => a + inputOf(r.usage), 0);
      const resultsOut = results.reduce((a, r) => a + r.usage.output_tokens, 0);
      const sessionOut = session.reduce((a, u) => a + u.outputTokens, 0);
      assert.equal(s.totals.inputTokens, whole ? sessionIn : resultsIn);
      assert.equal(s.totals.outputTokens, whole ? Math.max(sessionOut, resultsOut) : resultsOut);
      assert.equal(s.totals.costUsd, results[results.length - 1].total_cost_usd);
      assert.equal(s.totals.results, results.length);
    });
  }

  it('the 2.1.197 run counts the result line\'s 80 output tokens, not the streamed assistant lines\' 1 + 1', async () => {
    const file = STREAMS.find((f) => f.includes('claude-code-2.1.197'));
    if (!file) return;
    const s = summarize(await loadTrace(file));
    assert.equal(s.totals.outputTokens, 80);
  });

  it('a subagent run: its messages (with agent_id) link to, and are shown inside, the Agent tool_use that started it', async () => {
    const file = STREAMS.find((f) => jsonLines(f).some((l) => l.value.parent_tool_use_id))!;
    const m = await loadTrace(file);
    const sub = jsonLines(file).filter((l) => l.value.parent_tool_use_id);
    for (const { line, value } of sub) {
      const call = m.events.get(m.events.linkOf(line - 1));
      assert.ok(call.mentions.some((x) => x.id === value.parent_tool_use_id), `line ${line} links to the line holding ${value.parent_tool_use_id}`);
      assert.equal(call.tool, 'Agent');
      let a = m.events.parent(line - 1);
      while (a >= 0 && a !== call.index) a = m.events.parent(a);
      assert.equal(a, call.index, `line ${line} is shown inside the call`);
    }
  });
});

describe('claude-code mutations of real files are found at the right line', () => {
  const transcript = TRANSCRIPTS.find((f) => f.includes('shell-ok'))!;
  const rules = async (file: string, mode: 'verify' | 'check') => (await runAll(file, mode)).map((f) => `${f.rule}/${f.severity}@${f.line}`);

  it('a parent removed: its child\'s parentUuid dangles, at the child\'s line', async () => {
    const lines = jsonLines(transcript);
    const child = lines.find((l) => l.value.type === 'assistant' && l.value.parentUuid)!;
    const parent = lines.find((l) => l.value.uuid === child.value.parentUuid)!;
    const cut = mutateLines(transcript, (ls) => ls.filter((_, i) => i !== parent.line - 1), basename(transcript));
    assert.ok((await rules(cut, 'verify')).includes(`claude/parent-exists/warning@${child.line - 1}`));
  });

  it('a line written one before its parent is info; further ahead is a warning', async () => {
    const lines = jsonLines(transcript);
    const child = lines.find((l) => l.value.parentUuid && lines[l.line - 2]?.value.uuid === l.value.parentUuid)!;
    const swapped = mutateLines(transcript, (ls) => {
      const c = [...ls];
      [c[child.line - 2], c[child.line - 1]] = [c[child.line - 1], c[child.line - 2]];
      return c;
    }, basename(transcript));
    const found = await rules(swapped, 'verify');
    assert.ok(found.includes(`claude/parent-next-line/info@${child.line - 1}`), found.join(' '));
    assert.ok(!found.some((x) => x.startsWith('claude/parent-exists')));
  });

  it('a torn last line is an error at that line', async () => {
    const torn = mutateLines(transcript, (ls) => [...ls.slice(0, -1), ls[ls.length - 1].slice(0, 30)], basename(transcript));
    assert.equal((await runAll(torn, 'verify')).find((x) => x.severity === 'error')?.line, jsonLines(transcript).length);
  });

  it('a stream cut before its result: stream-result at the last line', async () => {
    const stream = STREAMS.find((f) => f.includes('shell-ok'))!;
    const cut = mutateLines(stream, (ls) => ls.filter((l) => !l.includes('"type":"result"')), 'stream-json.jsonl');
    assert.ok((await rules(cut, 'check')).includes(`claude/stream-result/warning@${jsonLines(stream).length - 1}`));
  });

  it('the Agent tool call removed from a subagent stream: parent-tool-use at the subagent\'s first line', async () => {
    const stream = STREAMS.find((f) => jsonLines(f).some((l) => l.value.parent_tool_use_id))!;
    const lines = jsonLines(stream);
    const first = lines.find((l) => l.value.parent_tool_use_id)!;
    const call = lines.find((l) => l.value.type === 'assistant' && l.value.message.content.some((b: any) => b.id === first.value.parent_tool_use_id))!;
    const cut = mutateLines(stream, (ls) => ls.filter((_, i) => i !== call.line - 1), 'stream-json.jsonl');
    assert.ok((await rules(cut, 'verify')).includes(`claude/parent-tool-use/warning@${first.line - 1}`));
  });
});

describe('claude-code stream-json: a background subagent\'s two runs', () => {
  it('result_index 0 ends the first run and result_index 1 the notification run', async () => {
    const file = STREAMS.find((f) => jsonLines(f).filter((l) => l.value.type === 'result').length > 1);
    if (!file) return;
    const m = await loadTrace(file);
    const lines = jsonLines(file);
    const inits = lines.filter((l) => l.value.subtype === 'init').map((l) => l.line);
    for (const r of lines.filter((l) => l.value.type === 'result')) assert.equal(m.events.lineOf(m.events.parent(r.line - 1)), inits[r.value.result_index]);
  });
});

describe('claude-code stream-json: failed runs and bad lines', () => {
  const stream = STREAMS.find((f) => f.includes('text'))!;

  it('a result with is_error (error_max_turns) is an error event and counts in the totals', async () => {
    const failed = mutateLines(stream, (ls) => ls.map((l) => (l.includes('"type":"result"') ? JSON.stringify({ ...JSON.parse(l), subtype: 'error_max_turns', is_error: true }) : l)), 'stream-json.jsonl');
    const m = await loadTrace(failed);
    const at = jsonLines(failed).find((l) => l.value.type === 'result')!.line;
    assert.equal(m.events.get(at - 1).status, 'error');
    assert.match(m.events.get(at - 1).label, /^result error_max_turns/);
    assert.equal(summarize(m).totals.errors, summarize(await loadTrace(stream)).totals.errors + 1);
  });

  it('a line that is not an object is a line-json error at its line; the stream stays stream-json', async () => {
    const bad = mutateLines(stream, (ls) => [ls[0], '"just text"', ...ls.slice(1)], 'stream-json.jsonl');
    const m = await loadTrace(bad);
    assert.equal(m.detection.dialect, 'stream-json');
    assert.equal(m.events.get(1).status, 'error');
    assert.deepEqual((await runAll(bad, 'verify')).map((f) => `${f.rule}@${f.line}`), ['claude/line-json@2']);
  });
});
