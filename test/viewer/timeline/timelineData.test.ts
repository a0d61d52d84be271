import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import type { TraceModel } from '../../../src/core/traceModel';
import { BAR_MODEL, BAR_TOOL, barStart, buildTimeline, endOf, Timeline, timelineDensity, timelineRows, timelineSlice } from '../../../src/viewer/timeline/timelineData';
import { TIMELINE_FILES } from '../../helpers/timelineFiles';

const GENAI_OTLP = join(__dirname, '..', '..', 'fixtures', 'other', 'genai.otlp.jsonl');

const load = (file: string): Promise<TraceModel> => loadTrace(file, { sessionParts: true });
const barOfLabel = (model: TraceModel, tl: Timeline, re: RegExp): number => tl.barOf[[...tl.nodes].find((i) => re.test(model.events.labelOf(i)))!];
const epoch = (tl: Timeline, b: number): number => tl.t0 + tl.start[b];

/** Tree order: a bar's parent bar comes before it and it is one level deeper; the span reaches the latest end. */
function checkShape(model: TraceModel, tl: Timeline): void {
  for (let b = 0; b < tl.nodes.length; b++) {
    assert.equal(tl.barOf[tl.nodes[b]], b);
    let p = model.events.parent(tl.nodes[b]);
    while (p >= 0 && tl.nodes[tl.barOf[p]] !== p) p = model.events.parent(p);
    if (p >= 0) {
      assert.ok(tl.barOf[p] < b, `parent bar before child bar ${b}`);
      assert.equal(tl.depth[b], tl.depth[tl.barOf[p]] + 1);
    }
    assert.equal(tl.size[b], [...Array(tl.nodes.length).keys()].slice(b + 1).findIndex((c) => tl.depth[c] <= tl.depth[b]) === -1 ? tl.nodes.length - b - 1 : [...Array(tl.nodes.length).keys()].slice(b + 1).findIndex((c) => tl.depth[c] <= tl.depth[b]), 'subtree size');
  }
  // Fit: from the first line's start to the last line's end (a line's end counts), drawn as a row or not.
  const t = model.events;
  const timed = [...Array(t.size).keys()].filter((i) => t.timeOf(i) !== null);
  const startOf = (i: number): number => barStart(model.format, t.timeOf(i)!, t.get(i).durationMs);
  const endAt = (i: number): number => (model.format === 'otlp' ? t.timeOf(i)! + (t.get(i).durationMs ?? 0) : t.timeOf(i)!);
  assert.equal(tl.t0, Math.min(...timed.map(startOf)), 'Fit starts at the first start');
  assert.equal(tl.span, Math.max(...timed.map(endAt)) - tl.t0, 'Fit ends at the last end, nothing more');
  for (let b = 0; b < tl.nodes.length; b++) assert.ok(tl.start[b] >= 0 && endOf(tl, b) <= tl.span + 1e-9);
}

describe('timeline data: a waterfall of calls', () => {
  it('Claude Code: the Bash call is one bar from tool_use to tool_result with the right duration; the result is no row', async () => {
    const model = await load(TIMELINE_FILES.claude);
    const tl = buildTimeline(model);
    checkShape(model, tl);
    const t = model.events;
    const use = [...Array(t.size).keys()].find((i) => /^Bash: (?!.*→)/.test(t.labelOf(i)))!;
    const result = [...Array(t.size).keys()].find((i) => /^Bash: .* → /.test(t.labelOf(i)))!;
    const b = tl.barOf[use];
    assert.equal(tl.nodes[b], use, 'the call has the bar');
    assert.equal(tl.barOf[result], b, 'its result is drawn as part of the call\'s bar');
    assert.ok(![...tl.nodes].includes(result), 'the result is no row');
    assert.equal(epoch(tl, b), t.timeOf(use));
    assert.equal(tl.duration[b], t.timeOf(result)! - t.timeOf(use)!);
    assert.equal(tl.duration[b], 60);
    assert.equal(tl.kind[b], BAR_TOOL);
    assert.equal(tl.open[b], 0);
  });

  it('Claude Code: the subagent\'s calls are under its Agent call, in their own lane; a model call lasts from its request', async () => {
    const model = await load(TIMELINE_FILES.claude);
    const tl = buildTimeline(model);
    const agent = barOfLabel(model, tl, /^Agent: (?!.*→)/);
    const bash = barOfLabel(model, tl, /^Bash: (?!.*→)/);
    assert.ok(bash > agent && bash <= agent + tl.size[agent], 'the subagent\'s Bash call is in the Agent call\'s subtree');
    assert.equal(tl.lane[agent], 0);
    assert.equal(tl.lane[bash], 1, 'the subagent\'s lane');
    const first = barOfLabel(model, tl, /^assistant .*I will delegate/);
    assert.equal(tl.kind[first], BAR_MODEL);
    // Written when the answer came (no duration): from the api-request line before it to its own time.
    const request = [...Array(model.events.size).keys()].filter((i) => model.events.kindOf(i) === 'api-request')[0];
    assert.equal(epoch(tl, first), model.events.timeOf(request));
    assert.equal(endOf(tl, first) + tl.t0, model.events.timeOf(tl.nodes[first]));
    const s = timelineSlice(model, tl, 0, 100);
    assert.match(s.facts[s.nodes.indexOf(tl.nodes[first])], /^claude-opus-5-5 · 5\.0k→68 tokens · \$[0-9.]+ · 11 ms$/);
    assert.equal(s.facts[s.nodes.indexOf(tl.nodes[bash])], 'Bash · 60 ms');
  });

  it('bookkeeping lines are not rows, counted by kind; progress lines under a call too', async () => {
    // The subagent session with Claude Code progress lines for its Agent call, as 2.x writes them.
    const lines = readFileSync(TIMELINE_FILES.claude, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"type":"tool_use","id":"toolu_mockmx4wrj1k00f"'));
    const call = JSON.parse(lines[at]);
    const progress = Array.from({ length: 40 }, (_, k) => JSON.stringify({
      parentUuid: call.uuid, isSidechain: false, type: 'progress', data: { type: 'agent_progress', message: `step ${k}` },
      toolUseID: `agent_msg_${k}`, parentToolUseID: call.message.content[0].id, uuid: `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`,
      timestamp: new Date(Date.parse(call.timestamp) + 1 + k).toISOString(), sessionId: call.sessionId,
    }));
    const dir = mkdtempSync(join(tmpdir(), 'timeline-progress-'));
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, [...lines.slice(0, at + 1), ...progress, ...lines.slice(at + 1)].join('\n'));
    const model = await loadTrace(file);
    const tl = buildTimeline(model);
    assert.equal(model.events.size, (await loadTrace(TIMELINE_FILES.claude)).events.size + 40);
    for (const i of tl.nodes) assert.notEqual(model.events.kindOf(i), 'progress');
    assert.ok(![...tl.nodes].some((i) => ['attachment', 'queue-operation', 'api-request'].includes(model.events.kindOf(i))));
    assert.equal(tl.bookkeeping.find((k) => k.kind === 'progress')?.count, 40);
    assert.equal(tl.bookkeeping.find((k) => k.kind === 'attachment')?.count, 8);
    assert.equal(tl.nodes.length, buildTimeline(await loadTrace(TIMELINE_FILES.claude)).nodes.length, 'the same rows as without them');
  });

  it('generic traces: kinds the format does not know are the user\'s events, drawn as rows, not bookkeeping', async () => {
    const model = await loadTrace(join(__dirname, '..', '..', 'fixtures', 'filter', 'hostile-values.jsonl'));
    const tl = buildTimeline(model);
    assert.equal(model.format, 'generic');
    assert.equal(tl.nodes.length, model.events.size);
    assert.deepEqual(tl.bookkeeping, []);
  });

  it('a call whose result is not in the trace is drawn to the run\'s end and marked open', async () => {
    const lines = readFileSync(TIMELINE_FILES.claude, 'utf8').split('\n').filter((l) => !l.includes('"tool_use_id":"toolu_mockmx4wrj1k00f"'));
    const file = join(mkdtempSync(join(tmpdir(), 'timeline-open-')), 'session.jsonl');
    writeFileSync(file, lines.join('\n'));
    const model = await loadTrace(file);
    const tl = buildTimeline(model);
    const agent = barOfLabel(model, tl, /^Agent: (?!.*→)/);
    assert.equal(tl.open[agent], 1);
    assert.equal(endOf(tl, agent), tl.span);
    assert.match(timelineSlice(model, tl, 0, 100).facts[agent], /no result$/);
  });

  it('Codex: the function call is one bar to its output; the echoed event_msg items are not rows', async () => {
    const model = await load(TIMELINE_FILES.codex);
    const tl = buildTimeline(model);
    checkShape(model, tl);
    const t = model.events;
    const call = barOfLabel(model, tl, /^exec_command: (?!.*→)/);
    const out = [...Array(t.size).keys()].find((i) => t.kindOf(i) === 'function_call_output')!;
    assert.equal(tl.barOf[out], call);
    assert.equal(endOf(tl, call) + tl.t0, t.timeOf(out));
    const labels = [...tl.nodes].map((i) => t.labelOf(i));
    assert.equal(labels.filter((l) => l.startsWith('message assistant: The command')).length, 1, 'the answer once, not twice');
    assert.equal(labels.filter((l) => l.startsWith('reasoning:')).length, 1);
    // Token reports (token_count, 0.17x token_usage_record) are the writer's bookkeeping: counted, never bars (issue 40).
    const reports = [...Array(t.size).keys()].filter((i) => t.kindOf(i) === 'token_count' || t.kindOf(i) === 'token_usage_record');
    assert.ok(reports.some((i) => t.kindOf(i) === 'token_usage_record'), 'the rollout has usage records');
    assert.deepEqual(reports.filter((i) => tl.barOf[i] >= 0 && tl.nodes[tl.barOf[i]] === i), [], 'no token report is a bar');
    assert.ok(tl.bookkeeping.some((k) => k.kind === 'token_usage_record'), 'usage records counted as bookkeeping');
  });

  it('Gemini: the tool call ends at its result; the $set bookkeeping is counted, not drawn', async () => {
    const model = await load(TIMELINE_FILES.gemini);
    const tl = buildTimeline(model);
    checkShape(model, tl);
    const t = model.events;
    const call = barOfLabel(model, tl, /^run_shell_command/);
    const result = [...Array(t.size).keys()].find((i) => t.kindOf(i) === 'tool_result')!;
    assert.equal(tl.barOf[result], call);
    assert.equal(tl.duration[call], t.timeOf(result)! - t.timeOf(tl.nodes[call])!);
    assert.deepEqual(tl.bookkeeping, [{ kind: '$set', count: 5 }]);
  });

  it('OTLP spans start at their start time, every child within its parent', async () => {
    const model = await load(TIMELINE_FILES.otlp);
    const tl = buildTimeline(model);
    checkShape(model, tl);
    assert.equal(tl.nodes.length, model.events.size, 'one bar per span');
    for (let b = 0; b < tl.nodes.length; b++) {
      const i = tl.nodes[b];
      assert.equal(epoch(tl, b), barStart(model.format, model.events.timeOf(i)!, model.events.get(i).durationMs));
      const p = model.events.parent(i);
      if (p >= 0) assert.ok(tl.start[b] >= tl.start[tl.barOf[p]] && endOf(tl, b) <= endOf(tl, tl.barOf[p]) + 1e-6, `bar ${b} within its parent`);
    }
  });

  it('linear chain: no critical path flags (murmur, Codex, Claude Code, Gemini, OTLP do one thing at a time)', async () => {
    for (const file of [TIMELINE_FILES.murmur, TIMELINE_FILES.codex, TIMELINE_FILES.claude, TIMELINE_FILES.gemini, TIMELINE_FILES.otlp]) {
      const tl = buildTimeline(await load(file));
      assert.deepEqual([...tl.critical.keys()].filter((b) => tl.critical[b] === 1), [], file);
    }
  });

  it('parallel branches: the critical path is the chain that ended last', async () => {
    // Two top-level spans that ran at once: the chat ending at 5.4 s and the HTTP call ending at 5.39 s.
    const model = await load(GENAI_OTLP);
    const tl = buildTimeline(model);
    const path = [...tl.critical.keys()].filter((b) => tl.critical[b] === 1);
    assert.deepEqual(path.map((b) => model.events.labelOf(tl.nodes[b])), [model.events.labelOf(tl.nodes[barOfLabel(model, tl, /upstream request timed out/)])]);
    assert.equal(endOf(tl, path[0]), tl.span);
  });

  it('rows: the filter hides bars (keeping the ancestors of kept ones) and counts them; a collapsed bar hides its subtree', async () => {
    const model = await load(TIMELINE_FILES.claude);
    const tl = buildTimeline(model);
    const bash = tl.nodes[barOfLabel(model, tl, /^Bash: (?!.*→)/)];
    const rows = timelineRows(tl, (i) => i === bash, new Set());
    const shown = [...rows.bars].map((b) => tl.nodes[b]);
    assert.equal(shown[shown.length - 1], bash);
    assert.ok(shown.every((i) => i === bash || tl.barOf[i] < tl.barOf[bash]), 'the kept bar and its ancestors only');
    assert.equal(rows.hidden, tl.nodes.length - shown.length);
    assert.ok(rows.hidden > 0);
    const s = timelineSlice(model, tl, 0, 100, rows);
    assert.equal(s.total, shown.length);
    assert.equal(s.hidden, rows.hidden);
    const agent = tl.nodes[barOfLabel(model, tl, /^Agent: (?!.*→)/)];
    const folded = timelineRows(tl, null, new Set([agent]));
    assert.equal(folded.bars.length, tl.nodes.length - tl.size[tl.barOf[agent]]);
    assert.equal(folded.rowOf[tl.barOf[bash]], -1);
  });

  it('a slice is clamped, carries labels, and the density counts every bar', async () => {
    const model = await loadTrace(TIMELINE_FILES.otlp);
    const tl = buildTimeline(model);
    const s = timelineSlice(model, tl, 2, 3);
    assert.deepEqual(s.nodes, [...tl.nodes.subarray(2, 5)]);
    assert.deepEqual(s.labels, s.nodes.map((i) => model.events.labelOf(i)));
    assert.equal(timelineSlice(model, tl, tl.nodes.length - 1, 100).nodes.length, 1);
    assert.equal(timelineSlice(model, tl, -5, 2).start, 0);
    const density = timelineDensity(tl, 50);
    assert.equal(density.length, 50);
    // Recount by brute force: a bar is active in every bucket from its start's to its end's.
    const brute = new Array(50).fill(0);
    for (let b = 0; b < tl.nodes.length; b++) {
      const at = (ms: number): number => Math.min(49, Math.floor((ms * 50) / tl.span));
      for (let k = at(tl.start[b]); k <= at(endOf(tl, b)); k++) brute[k]++;
    }
    assert.deepEqual(density, brute);
  });
});
