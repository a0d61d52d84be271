import { strict as assert } from 'node:assert';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrace, loadTraceChecked } from '../../src/core/loadTrace';
import { openTraceReader } from '../../src/core/traceReader';
import { sessionUsage } from '../../src/core/sessionUsage';
import { summarize, summarizeSession } from '../../src/core/summary';
import { usageReport } from '../../src/core/usage/usageReport';
import { runChecks } from '../../src/core/formatRules';
import { mainEvents, pathOfEvent } from '../../src/core/traceParts';
import { checkSessionParts } from '../../src/core/sessionParts';
import type { TraceModel } from '../../src/core/traceModel';
import { WRITER_CORPUS } from '../helpers/corpus';

/** The real-writer session whose Agent call started a subagent (test/corpus/claude-code-2.1.332/SOURCE.md). */
const CASE = join(WRITER_CORPUS, 'claude-code-2.1.332/subagent/projects');
const REL = '-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4';
const SESSION = join(CASE, `${REL}.jsonl`);
const SUBAGENT = join(CASE, REL, 'subagents/agent-a5c03940d33ae9f06.jsonl');
const META = join(CASE, REL, 'subagents/agent-a5c03940d33ae9f06.meta.json');
const AGENT_CALL = 'toolu_mockmx4wrj1k00f';

const linesOf = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

/** The session copied to a scratch folder, to damage or grow. */
function scratchSession(): { dir: string; session: string; subagent: string; meta: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parts-'));
  cpSync(CASE, dir, { recursive: true });
  return { dir, session: join(dir, `${REL}.jsonl`), subagent: join(dir, REL, 'subagents/agent-a5c03940d33ae9f06.jsonl'), meta: join(dir, REL, 'subagents/agent-a5c03940d33ae9f06.meta.json') };
}

/** Depth of the deepest event of the tree shown. */
function maxDepth(m: TraceModel): number {
  let d = 0;
  for (let i = 0; i < m.events.size; i++) d = Math.max(d, m.tree.depth(i));
  return d;
}

/** The event of the main file holding the Agent call's tool_use. */
function agentCallEvent(m: TraceModel): number {
  for (let i = 0; i < m.events.size; i++) {
    if (m.events.partOf(i) === 0 && m.events.mentionsOf(i).some((x) => x.id === AGENT_CALL && /^message\.content\[\d+\]\.id$/.test(x.field))) return i;
  }
  return -1;
}

describe('session parts: a Claude Code session read with its subagent transcripts (LoadOptions.sessionParts)', () => {
  it('shows the subagent under the Agent call that started it, at most eight levels deep', async () => {
    const m = await loadTrace(SESSION, { sessionParts: true });
    assert.equal(m.parts?.length, 2);
    const call = agentCallEvent(m);
    assert.ok(call >= 0);
    assert.deepEqual(m.parts!.map((p) => [p.role, p.path, p.toolUseId, p.title, p.call]), [
      ['main', SESSION, null, null, -1],
      ['subagent', SUBAGENT, AGENT_CALL, 'Say hello via shell', call],
    ]);
    const sub = m.parts![1];
    // The subagent's first line (its prompt) is its only root, and it hangs under the Agent call.
    const subRoots = [];
    for (let i = sub.first; i < sub.first + sub.count; i++) if (m.events.parent(i) < sub.first) subRoots.push(i);
    assert.deepEqual(subRoots.map((i) => [m.events.lineOf(i), m.events.parent(i)]), [[1, call]]);
    assert.ok([...m.tree.children(call)].includes(sub.first), 'the call lists it among its children');
    const depth = maxDepth(m);
    assert.ok(depth <= 7, `depth ${depth + 1} levels`);
    // Turn → step → Agent call → subagent turn → step → Bash call → result.
    assert.equal(depth, 6);
    assert.ok(maxDepth(m) > maxDepth(await loadTrace(SESSION)), 'the subagent adds levels under the call');
  });

  it('holds every subagent event once, as the subagent file read alone has it, each at its own line of its own file', async () => {
    const m = await loadTrace(SESSION, { sessionParts: true });
    const alone = await loadTrace(SUBAGENT);
    const main = await loadTrace(SESSION);
    const sub = m.parts![1];
    assert.equal(sub.count, alone.events.size);
    assert.equal(sub.first, main.events.size, 'after the main file\'s events');
    assert.equal(m.events.size, main.events.size + alone.events.size);
    const seen = new Map<string, number>();
    for (let i = 0; i < m.events.size; i++) {
      const path = pathOfEvent(m, i);
      const key = `${path}:${m.events.lineOf(i)}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const e = m.events.get(i);
      // The event's place reads its own line of its own file.
      const lines = linesOf(path);
      const bytes = readFileSync(path).subarray(e.offset, e.offset + e.length).toString('utf8');
      assert.equal(bytes, lines[e.line - 1], `event ${i}: line ${e.line} of ${path}`);
    }
    assert.equal(seen.size, linesOf(SESSION).length + linesOf(SUBAGENT).length, 'every line of both files, once');
    assert.ok([...seen.values()].every((c) => c === 1));
    for (let j = 0; j < alone.events.size; j++) {
      const i = sub.first + j;
      assert.deepEqual([m.events.partOf(i), m.events.kindOf(i), m.events.labelOf(i), m.events.tokensInOf(i), m.events.tokensOutOf(i)], [1, alone.events.kindOf(j), alone.events.labelOf(j), alone.events.tokensInOf(j), alone.events.tokensOutOf(j)]);
    }
    for (let i = 0; i < main.events.size; i++) assert.deepEqual([m.events.partOf(i), m.events.labelOf(i), m.events.parent(i)], [0, main.events.labelOf(i), main.events.parent(i)]);
  });

  it('counts the session\'s usage once (23,824 in / 141 out), from the models it read, not by reading the files again', async () => {
    const { dir, session, subagent } = scratchSession();
    try {
      const m = await loadTrace(session, { sessionParts: true });
      const plain = await loadTrace(session);
      assert.deepEqual(usageReport(m).total, usageReport(plain).total, 'the model\'s own usage is the main file\'s');
      // The subagent file is gone: a usage that read it again would miss it.
      rmSync(subagent);
      const u = await sessionUsage(m);
      assert.deepEqual([u.total.inputTokens, u.total.outputTokens], [23824, 141]);
      assert.deepEqual(u.explain.files.map((f) => [f.inputTokens, f.outputTokens]), [[16067, 94], [7757, 47]]);
      const s = await summarizeSession(m);
      assert.deepEqual([s.totals.inputTokens, s.totals.outputTokens, s.totals.toolCalls], [23824, 141, 2], 'the Agent call and the subagent\'s Bash call, once each');
      assert.deepEqual(summarize(m).usage.byTool.map((t) => [t.tool, t.calls]), [['Agent', 1]], 'the main file\'s own calls');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads no part that would take the session over the size limit: it is listed with why, and the usage says it is not complete', async () => {
    const main = readFileSync(SESSION).length;
    const sub = readFileSync(SUBAGENT).length;
    const plain = await loadTrace(SESSION);
    const m = await loadTrace(SESSION, { sessionParts: true, sessionPartsMaxBytes: main + sub - 1 });
    assert.equal(m.parts?.length, 2);
    assert.match(m.parts![1].error ?? '', /not read: .* over the size limit of .* MB \(agentTrace\.maxFileSizeMB\)/);
    assert.equal(m.parts![1].model, null);
    assert.equal(m.events.size, plain.events.size, 'no subagent event was added');
    const u = await sessionUsage(m);
    assert.match(u.explain.files[1].error ?? '', /size limit/);
    assert.equal(u.complete, false);
    assert.deepEqual([u.total.inputTokens, u.total.outputTokens], [16067, 94], 'the main file\'s own, nothing guessed for the part');
    // At the limit exactly, the part is read.
    const whole = await loadTrace(SESSION, { sessionParts: true, sessionPartsMaxBytes: main + sub });
    assert.equal(whole.parts![1].error, undefined);
    assert.ok(whole.events.size > plain.events.size);
  });

  it('leaves the CLI\'s read alone: without the option the model is the main file\'s only', async () => {
    const m = await loadTrace(SESSION);
    assert.equal(m.parts, undefined);
    assert.equal(m.events.size, linesOf(SESSION).length);
    for (let i = 0; i < m.events.size; i++) assert.equal(m.events.partOf(i), 0);
  });

  it('keeps a damaged subagent file\'s findings on that file and line; the main file\'s checks judge it alone', async () => {
    const { dir, session, subagent } = scratchSession();
    try {
      const lines = linesOf(subagent);
      lines[4] = lines[4].slice(0, 40);
      writeFileSync(subagent, lines.join('\n') + '\n');
      const { model: m, results } = await loadTraceChecked(session, { sessionParts: true, checks: { modes: ['verify'] } });
      assert.equal(results.get('verify')!.checked, linesOf(session).length, 'the checks riding along judge the main file\'s events');
      assert.ok(!results.get('verify')!.findings.some((f) => f.rule.startsWith('parse/')));
      const own = m.parts![1].model!;
      assert.deepEqual(own.diagnostics.filter((d) => d.rule.startsWith('parse/')).map((d) => [d.rule, d.line]), [['parse/invalid-json', 5]]);
      assert.deepEqual(own.malformed.map((x) => x.line), [5]);
      assert.equal(m.diagnostics.length, 0, 'the main file has no finding of the subagent\'s');
      for (const mode of ['verify', 'check'] as const) {
        const main = await runChecks(m, mode);
        const plain = await runChecks(await loadTrace(session), mode);
        assert.deepEqual(main.findings, plain.findings, `${mode}: the main file judged as read alone`);
        assert.equal(main.checked, plain.checked);
        const part = await runChecks(own, mode);
        assert.ok(part.findings.some((f) => f.rule === 'parse/invalid-json' && f.line === 5), `${mode}: the subagent file's own check finds its line`);
      }
      assert.equal(mainEvents(m).size, linesOf(session).length);
      // What the Problems panel is given for the session's other files: each file's own result, on its own path.
      const parts = await checkSessionParts(m, 'verify');
      assert.deepEqual(parts.map((p) => [p.part, p.path, p.result.file]), [[1, subagent, subagent]]);
      assert.ok(parts[0].result.findings.some((f) => f.rule === 'parse/invalid-json' && f.line === 5));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('puts a subagent whose call is not in the main file under a grouping event at the end, never lost', async () => {
    const { dir, session, meta } = scratchSession();
    try {
      writeFileSync(meta, readFileSync(META, 'utf8').replace(AGENT_CALL, 'toolu_not_there'));
      const m = await loadTrace(session, { sessionParts: true });
      const sub = m.parts![1];
      assert.equal(sub.call, -1);
      assert.equal(sub.count, linesOf(SUBAGENT).length + 1, 'its events and the grouping event');
      const group = sub.first;
      assert.equal(m.tree.roots[m.tree.roots.length - 1], group, 'the last root');
      assert.match(m.events.labelOf(group), /subagent "Say hello via shell" \(agent-a5c03940d33ae9f06\.jsonl; its call is not in this file\)/);
      for (let i = group + 1; i < m.events.size; i++) assert.ok(m.tree.depth(i) >= 1, 'under the grouping');
      assert.ok(maxDepth(m) <= 7);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('follows the main file as it grows: new events come after the parts\' and are the main file\'s', async () => {
    const { dir, session } = scratchSession();
    try {
      const reader = await openTraceReader(session, { sessionParts: true });
      const before = reader.model;
      const n = before.events.size;
      const last = JSON.parse(linesOf(session).filter((l) => JSON.parse(l).type === 'user').pop()!);
      const added = { ...last, uuid: 'appended-0001', parentUuid: null, message: { role: 'user', content: 'One more question.' } };
      appendFileSync(session, JSON.stringify(added) + '\n');
      const out = await reader.append();
      assert.equal(out.kind, 'appended');
      if (out.kind !== 'appended') return;
      const m = out.model;
      assert.equal(out.firstNewEvent, n);
      assert.equal(m.events.size, n + 1);
      assert.equal(m.parts, before.parts, 'the parts stay');
      assert.deepEqual([m.events.partOf(n), m.events.lineOf(n), pathOfEvent(m, n)], [0, linesOf(session).length, session]);
      assert.ok([...m.tree.roots].includes(n), 'a new prompt is a turn of its own');
      assert.equal(m.tree.depth(m.parts![1].first), before.tree.depth(m.parts![1].first), 'the subagent stays under its call');
      assert.equal(mainEvents(m).size, linesOf(session).length, 'the main file\'s events, old and new');
      const checked = await runChecks(m, 'verify');
      assert.equal(checked.checked, linesOf(session).length);
      assert.deepEqual(checked.findings, (await runChecks(await loadTrace(session), 'verify')).findings);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
