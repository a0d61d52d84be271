import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { layOutAgentHome, HomeFile } from '../helpers/agentHome';
import { runCliInProcess } from '../helpers/cliInProcess';
import { tempDir } from '../helpers/tmp';
import { FORMAT_NAMES } from '../../src/core/formatNames';
import { SESSION_CACHE_FILE } from '../../src/core/sessions/sessionCache';
import { tracesRead } from '../helpers/readsUnder';

/** The main session files the real-writer corpus holds per tool the viewer reads today (subagents' files apart). */
const SESSIONS_TODAY: Record<string, number> = { 'claude-code': 8, codex: 7, 'gemini-cli': 5, 'qwen-code': 6, 'copilot-cli': 6, pi: 5, continue: 7 };

/** A laid-out file that is a session of its own: not a subagent's, not an index, log or metadata file of the tool. */
function isMainSession(f: HomeFile): boolean {
  if (/[/\\]subagents[/\\]/.test(f.path)) return false;
  if (f.tool === 'claude-code' || f.tool === 'qwen-code') return /[/\\](projects[/\\][^/\\]+|chats)[/\\][^/\\]+\.jsonl$/.test(f.path);
  if (f.tool === 'codex') return /rollout-[^/\\]+\.jsonl$/.test(f.path);
  if (f.tool === 'gemini-cli') return /[/\\]chats[/\\][^/\\]+\.jsonl?$/.test(f.path);
  if (f.tool === 'copilot-cli') return /[/\\]session-state[/\\][^/\\]+[/\\]events\.jsonl$/.test(f.path);
  if (f.tool === 'pi') return /[/\\]\.pi[/\\]agent[/\\]sessions[/\\][^/\\]+[/\\][^/\\]+\.jsonl$/.test(f.path);
  // Continue: each session's document, not its index (sessions.json).
  if (f.tool === 'continue') return /[/\\]\.continue[/\\]sessions[/\\][^/\\]+-[^/\\]+\.json$/.test(f.path);
  return false;
}

const waitingFor = ['copilot-cli', 'pi', 'continue', 'opencode'].filter((t) => !(FORMAT_NAMES as readonly string[]).includes(t));

describe(`agent-trace sessions and usage, on a home laid out from the real-writer corpus (laid out, not read yet: ${waitingFor.join(', ') || 'none'})`, function () {
  this.timeout(120000);
  let home: string;
  let cache: string;
  let files: HomeFile[];
  let savedHome: string | undefined;
  let listed: any[];

  before(async () => {
    savedHome = process.env.HOME;
    home = tempDir('atv-home-');
    cache = tempDir('atv-cache-');
    files = layOutAgentHome(home);
    process.env.HOME = home;
    const r = await runCliInProcess('sessions', '--json', '--cache', cache);
    assert.equal(r.code, 0, r.err);
    listed = JSON.parse(r.out);
  });
  after(() => {
    process.env.HOME = savedHome;
  });

  it('lays every tool of the corpus out in its native folder', () => {
    const tools = new Set(files.map((f) => f.tool));
    for (const t of ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'copilot-cli', 'pi', 'continue', 'opencode']) assert.ok(tools.has(t), t);
    assert.ok(files.some((f) => f.path.startsWith(join(home, '.claude', 'projects'))));
    assert.ok(files.some((f) => f.path.startsWith(join(home, '.codex', 'sessions'))));
    assert.ok(files.some((f) => f.path.startsWith(join(home, '.gemini', 'tmp'))));
    assert.ok(files.some((f) => f.path.startsWith(join(home, '.copilot', 'session-state'))));
    assert.ok(files.some((f) => f.path.startsWith(join(home, '.pi', 'agent', 'sessions'))));
  });

  it('lists each session once, with its agent, and every field of the contract', () => {
    for (const [tool, n] of Object.entries(SESSIONS_TODAY)) {
      const expected = files.filter((f) => f.tool === tool && isMainSession(f)).map((f) => f.path).sort();
      assert.equal(expected.length, n, tool);
      assert.deepEqual(listed.filter((s) => s.agent === tool).map((s) => s.file).sort(), expected, tool);
    }
    const paths = listed.map((s) => s.file);
    assert.equal(new Set(paths).size, paths.length, 'no file twice');
    for (const s of listed) {
      assert.deepEqual(Object.keys(s), ['agent', 'file', 'sessionId', 'title', 'project', 'startTime', 'endTime', 'events', 'subagents', 'usage', 'errors', 'error']);
      assert.deepEqual(Object.keys(s.usage), ['inputTokens', 'outputTokens', 'costUsd']);
      assert.equal(s.error, null, s.file);
      assert.ok(typeof s.title === 'string' && s.title.length > 0 && !s.title.startsWith('<'), `${s.file}: ${s.title}`);
    }
    // Newest first; a session with no recorded time (a Continue session its index does not list) last.
    const starts = listed.map((s) => s.startTime ?? '');
    assert.deepEqual(starts, [...starts].sort().reverse());
  });

  it('counts each session as summary --json counts its file: events, times, usage with subagents, failed events', async () => {
    for (const s of listed) {
      const r = await runCliInProcess('summary', '--json', s.file);
      const j = JSON.parse(r.out);
      assert.equal(s.events, j.events, s.file);
      assert.equal(s.startTime, j.startTime, s.file);
      assert.equal(s.endTime, j.endTime, s.file);
      assert.equal(s.sessionId, j.groups[0], s.file);
      assert.equal(s.errors, j.totals.errors, s.file);
      assert.deepEqual(s.usage, { inputTokens: j.usage.total.inputTokens, outputTokens: j.usage.total.outputTokens, costUsd: j.usage.total.costUsd }, s.file);
    }
    // The shell-fail scenario's failed call, in every agent that records it as failed.
    const failed = listed.filter((s) => s.title === 'List the folder /nonexistent.');
    assert.equal(failed.length, Object.keys(SESSIONS_TODAY).length);
    assert.ok(failed.every((s) => s.errors > 0), JSON.stringify(failed.map((s) => [s.agent, s.errors])));
  });

  it('takes titles from the first user prompt and projects from the working folder', () => {
    const titles = new Set(listed.map((s) => s.title));
    for (const t of ['Say hello.', 'Run echo hello and tell me what it printed.', 'Remember the code word PLUM.']) assert.ok(titles.has(t), t);
    // Continue's session is one JSON document, read whole: its workspaceDirectory is not seen line by line (a follow-up).
    for (const s of listed.filter((x) => x.agent !== 'gemini-cli' && x.agent !== 'continue')) assert.equal(s.project, '/home/user/project', s.file);
    // Gemini CLI records no cwd: its project folder under ~/.gemini/tmp.
    for (const s of listed.filter((x) => x.agent === 'gemini-cli')) assert.equal(s.project, 'project', s.file);
  });

  it('does not list a subagent\'s file apart: it is counted in its session', async () => {
    const subagentFiles = files.filter((f) => /[/\\]subagents[/\\].*\.jsonl$/.test(f.path));
    assert.ok(subagentFiles.length >= 2);
    // Read as part of its session only, never first as a session of its own (files are read several at a time).
    for (const tool of ['.claude', '.qwen']) {
      const out = (await runCliInProcess('sessions', '--no-cache', '--root', join(home, tool))).out;
      const n = SESSIONS_TODAY[tool === '.claude' ? 'claude-code' : 'qwen-code'];
      assert.match(out, new RegExp(`^${n} sessions \\(${n} files read, 0 from the cache\\)$`, 'm'), tool);
    }
    for (const f of subagentFiles) assert.ok(!listed.some((s) => s.file === f.path), f.path);
    for (const tool of ['claude-code', 'qwen-code']) {
      const withSub = listed.filter((s) => s.agent === tool && s.subagents > 0);
      assert.equal(withSub.length, 1, tool);
      assert.equal(withSub[0].title, 'Use a subagent to run echo hello.');
    }
  });

  it('usage --by day adds up to the sessions\' own totals, and says which sessions had no cost', async () => {
    const r = await runCliInProcess('usage', '--by', 'day', '--json', '--cache', cache);
    assert.equal(r.code, 0, r.err);
    const u = JSON.parse(r.out);
    assert.equal(u.by, 'day');
    // Each call on its own day: the corpus's sessions each ran within one day, so each counts once.
    assert.equal(u.placedBy, 'events');
    const sum = (xs: any[], f: (x: any) => number | null) => xs.reduce((a, x) => a + (f(x) ?? 0), 0);
    assert.equal(sum(u.buckets, (b) => b.sessions), listed.length);
    assert.equal(sum(u.buckets, (b) => b.inputTokens), sum(listed, (s) => s.usage.inputTokens));
    assert.equal(sum(u.buckets, (b) => b.outputTokens), sum(listed, (s) => s.usage.outputTokens));
    assert.ok(Math.abs(sum(u.buckets, (b) => b.costUsd) - sum(listed, (s) => s.usage.costUsd)) < 1e-9);
    assert.equal(u.total.inputTokens, sum(listed, (s) => s.usage.inputTokens));
    for (const b of u.buckets) assert.equal(b.sessions, listed.filter((s) => (s.startTime?.slice(0, 10) ?? '(none)') === b.key).length, b.key);
    // A session whose models have no price has no cost: named, never counted as 0.
    const noCost = listed.filter((s) => s.usage.costUsd === null).map((s) => s.file).sort();
    assert.ok(noCost.length > 0);
    assert.deepEqual([...u.total.sessionsWithoutCost].sort(), noCost);
    const byAgent = JSON.parse((await runCliInProcess('usage', '--by', 'agent', '--json', '--cache', cache)).out);
    assert.deepEqual(byAgent.buckets.map((b: any) => [b.key, b.sessions]), Object.entries(SESSIONS_TODAY).sort());
    const text = (await runCliInProcess('usage', '--cache', cache)).out;
    assert.match(text, /^2026-12-01 +13 /m);
    assert.match(text, /had no cost/);
    // --csv: the same buckets, an unknown cost an empty field; --split adds a column of parts that add up.
    const csv = await runCliInProcess('usage', '--by', 'day', '--csv', '--split', 'agent', '--cache', cache);
    assert.equal(csv.code, 0, csv.err);
    const rows = csv.out.trimEnd().split('\r\n').map((l) => l.split(','));
    assert.deepEqual(rows[0].slice(0, 4), ['day', 'agent', 'sessions', 'inputTokens']);
    assert.equal(rows.at(-1)![0], 'total');
    assert.equal(sum(rows.slice(1, -1), (r) => Number(r[3])), u.total.inputTokens);
    assert.equal(sum(rows.slice(1, -1), (r) => Number(r[2])), listed.length);
    assert.ok(rows.some((r) => r[1] === 'qwen-code' && r[7] === ''), 'an unpriced agent has no cost, not 0');
    assert.equal((await runCliInProcess('usage', '--csv', '--json', '--cache', cache)).code, 2);
    assert.equal((await runCliInProcess('usage', '--split', 'day', '--cache', cache)).code, 2);
  });

  it('a second listing reads no trace file; a grown file is read again, alone', async () => {
    const again = tracesRead(home, async () => {
      const r = await runCliInProcess('sessions', '--json', '--cache', cache);
      assert.deepEqual(JSON.parse(r.out), listed);
    });
    assert.deepEqual(await again, []);
    const rollout = listed.find((s) => s.agent === 'codex')!;
    const lines = readFileSync(rollout.file, 'utf8').trimEnd().split('\n');
    appendFileSync(rollout.file, lines[lines.length - 1] + '\n');
    let text = '';
    const read = await tracesRead(home, async () => {
      text = (await runCliInProcess('sessions', '--cache', cache)).out;
    });
    assert.deepEqual([...new Set(read)], [rollout.file]);
    assert.match(text, /1 files read, \d+ from the cache/);
    const now = JSON.parse((await runCliInProcess('sessions', '--json', '--agent', 'codex', '--cache', cache)).out);
    assert.ok(now.find((s: any) => s.file === rollout.file).events > rollout.events);
    assert.ok(statSync(join(cache, SESSION_CACHE_FILE)).size > 0);
  });

  it('reads a session again when a subagent\'s file changed, and every file when the cache is damaged', async () => {
    const withSub = listed.find((s) => s.agent === 'claude-code' && s.subagents > 0)!;
    const sub = files.find((f) => f.tool === 'claude-code' && /[/\\]subagents[/\\].*\.jsonl$/.test(f.path))!.path;
    await runCliInProcess('sessions', '--cache', cache);
    const lines = readFileSync(sub, 'utf8').trimEnd().split('\n');
    appendFileSync(sub, lines[lines.length - 1] + '\n');
    const read = await tracesRead(home, () => runCliInProcess('sessions', '--cache', cache));
    assert.ok(read.includes(withSub.file) && read.includes(sub), read.join('\n'));
    // The session's two trace files (and the subagent's meta file, which names it), nothing else.
    assert.deepEqual([...new Set(read.filter((p) => p.endsWith('.jsonl')))].sort(), [withSub.file, sub].sort());
    writeFileSync(join(cache, SESSION_CACHE_FILE), '{"key": "not this one", "records": [');
    let out = '';
    await tracesRead(home, async () => {
      out = (await runCliInProcess('sessions', '--cache', cache)).out;
    });
    assert.match(out, new RegExp(`^${listed.length} sessions \\(\\d+ files read, 0 from the cache\\)$`, 'm'));
  });

  it('lists a damaged file with its error and goes on', async () => {
    const dir = join(home, '.claude', 'projects', '-home-user-damaged');
    mkdirSync(dir, { recursive: true });
    const zip = join(dir, 'aaaaaaaa-0000-0000-0000-000000000000.jsonl');
    writeFileSync(zip, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0xff, 0xfe, 0, 1, 2, 3]));
    const r = await runCliInProcess('sessions', '--json', '--no-cache');
    assert.equal(r.code, 0, r.err);
    const all = JSON.parse(r.out);
    assert.equal(all.length, listed.length + 1);
    const bad = all.find((s: any) => s.file === zip);
    assert.equal(bad.agent, 'claude-code');
    assert.match(bad.error, /zip/i);
    assert.equal(bad.project, '-home-user-damaged');
    const text = (await runCliInProcess('sessions', '--no-cache', '--agent', 'claude-code')).out;
    assert.match(text, /\(cannot read: .*zip/i);
  });

  it('--root, --agent and --since choose the sessions; bad usage exits 2', async () => {
    const qwen = JSON.parse((await runCliInProcess('sessions', '--json', '--no-cache', '--root', join(home, '.qwen'))).out);
    assert.deepEqual(qwen.map((s: any) => s.agent), Array(SESSIONS_TODAY['qwen-code']).fill('qwen-code'));
    const late = JSON.parse((await runCliInProcess('sessions', '--json', '--cache', cache, '--since', '2026-12-05')).out);
    assert.deepEqual(late.map((s: any) => s.file).sort(), listed.filter((s) => s.endTime >= '2026-12-05').map((s) => s.file).sort());
    assert.ok(late.length > 0 && late.length < listed.length);
    for (const bad of [['--root', join(home, 'nowhere')], ['--agent', 'nobody'], ['--since', 'yesterday'], ['some-file']]) {
      const r = await runCliInProcess('sessions', '--no-cache', ...bad);
      assert.equal(r.code, 2, bad.join(' '));
      assert.match(r.err, /^agent-trace: /);
    }
    assert.equal((await runCliInProcess('usage', '--by', 'year', '--no-cache')).code, 2);
  });
});
