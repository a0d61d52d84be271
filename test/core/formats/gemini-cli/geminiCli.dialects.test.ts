import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { treeJson } from '../../../../src/cli/treeJson';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { CORPUS_ROOT, WRITER_CORPUS } from '../../../helpers/corpus';

type Obj = Record<string, any>;

async function withTemp(text: string, name: string, f: (p: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-d-'));
  try {
    writeFileSync(join(dir, name), text);
    await f(join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The recording with a tool call, from the real-writer corpus. */
function toolRecording(): string {
  const root = WRITER_CORPUS;
  for (const d of readdirSync(root).filter((n) => n.startsWith('gemini-cli-'))) {
    const chats = join(root, d, 'shell-fail', 'tmp', 'project', 'chats');
    for (const n of readdirSync(chats)) return join(chats, n);
  }
  throw new Error('no gemini recording with a tool call');
}

/** The conversation the CLI's own loader rebuilds from a JSONL recording (last version per id; `$set` merges). */
function conversationOf(jsonl: string): Obj {
  let meta: Obj = {};
  const messages = new Map<string, Obj>();
  for (const line of jsonl.split('\n').filter((l) => l.trim() !== '')) {
    const r = JSON.parse(line);
    if (typeof r.id === 'string') messages.set(r.id, r);
    else if (r.$set) {
      if (Array.isArray(r.$set.messages)) {
        messages.clear();
        for (const m of r.$set.messages) messages.set(m.id, m);
      }
      meta = { ...meta, ...r.$set };
    } else if (r.sessionId && r.projectHash) meta = { ...meta, ...r };
  }
  return { ...meta, messages: [...messages.values()] };
}

/** Every JSON file of both corpora and the samples outside the Gemini CLI folders. */
function otherFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, n.name);
      if (n.isDirectory()) {
        if (!n.name.startsWith('gemini-cli-') && n.name !== 'blobs') walk(p);
      } else if (/\.jsonl?$/.test(n.name) && n.name !== 'bundle.json') out.push(p);
    }
  };
  for (const r of [CORPUS_ROOT, WRITER_CORPUS, resolve('samples')]) walk(r);
  return out;
}

describe('gemini-cli dialects', () => {
  it('claims no file of another format, and not bare {"$set": …} lines', async () => {
    for (const f of otherFiles()) {
      const m = await loadTrace(f);
      assert.ok(!m.detection.candidates.some((c) => c.format === 'gemini-cli' && c.confidence >= 0.5), `${f}: ${JSON.stringify(m.detection.candidates)}`);
    }
    await withTemp('{"$set":{"a":1}}\n{"$set":{"b":2}}\n', 'updates.jsonl', async (p) => assert.equal((await loadTrace(p)).format, 'generic'));
  });

  it('reads an older whole-document .json recording: each message once, at the line of its id, calls under it', async () => {
    const conv = conversationOf(readFileSync(toolRecording(), 'utf8'));
    const text = JSON.stringify(conv, null, 2);
    await withTemp(text, 'session-2026-01-01T00-00-abcdef12.json', async (p) => {
      const m = await loadTrace(p);
      assert.equal(m.format, 'gemini-cli');
      assert.equal(summarize(m).dialect, 'chat-recording-json');
      const nodes = treeJson(m).nodes;
      const lines = text.split('\n');
      for (const msg of conv.messages) {
        const mine = nodes.filter((n) => n.id === msg.id);
        assert.equal(mine.length, 1, msg.id);
        assert.ok(lines[mine[0].line - 1].includes(`"id": "${msg.id}"`));
        for (const tc of msg.toolCalls ?? []) assert.equal(nodes.find((n) => n.id === tc.id)!.parentIndex, mine[0].index);
      }
      const tokens = conv.messages.filter((x: Obj) => x.tokens).reduce((s: number, x: Obj) => s + x.tokens.output, 0);
      assert.equal(summarize(m).totals.outputTokens, tokens);
      assert.ok((await runChecks(m, 'verify')).ok);
    });
  });

  it('marks the messages a $rewindTo took back, and keeps them in the tree', async () => {
    const lines = readFileSync(toolRecording(), 'utf8').split('\n').filter((l) => l !== '');
    const prompt = lines.map((l) => JSON.parse(l)).find((v) => v.type === 'user' && v.content?.[0]?.text && !v.content[0].text.startsWith('<session_context>'))!;
    const again = { id: 'after-rewind', timestamp: '2026-12-01T17:00:00.000Z', type: 'user', content: [{ text: 'Try again.' }] };
    const text = [...lines, JSON.stringify({ $rewindTo: prompt.id }), JSON.stringify(again)].join('\n') + '\n';
    await withTemp(text, 'session-x.jsonl', async (p) => {
      const m = await loadTrace(p);
      const nodes = treeJson(m).nodes.filter((n) => n.kind !== '$set');
      const from = lines.findIndex((l) => JSON.parse(l).id === prompt.id) + 1;
      for (const n of nodes) {
        const message = n.kind === 'user' || n.kind === 'gemini' || n.kind === 'tool_result';
        assert.equal(/\(rewound\)$/.test(n.label), message && n.line >= from && n.id !== 'after-rewind', `${n.kind} line ${n.line}`);
      }
    });
  });

  it('reads a subagent recording (kind "subagent") like a main one', async () => {
    const text = readFileSync(toolRecording(), 'utf8').replace('"kind":"main"', '"kind":"subagent"');
    await withTemp(text, 'f00dcafe-0000-4000-8000-000000000000.jsonl', async (p) => {
      const m = await loadTrace(p);
      assert.equal(m.format, 'gemini-cli');
      assert.match(m.events.labelOf(0), /subagent/);
    });
  });

  it('a stream-json run that failed: the result carries the error; a run that failed before init is not a cut head', async () => {
    const stream = [
      { type: 'init', timestamp: '2026-01-01T00:00:00.000Z', session_id: 's1', model: 'gemini-2.5-pro' },
      { type: 'message', timestamp: '2026-01-01T00:00:00.100Z', role: 'user', content: 'hi' },
      { type: 'error', timestamp: '2026-01-01T00:00:00.200Z', severity: 'warning', message: 'Loop detected' },
      { type: 'result', timestamp: '2026-01-01T00:00:00.300Z', status: 'error', error: { type: 'FatalToolExecutionError', message: 'boom' }, stats: { input_tokens: 5, output_tokens: 0, tool_calls: 0 } },
    ];
    await withTemp(stream.map((x) => JSON.stringify(x)).join('\n') + '\n', 'out.jsonl', async (p) => {
      const m = await loadTrace(p);
      assert.deepEqual([m.events.statusOf(2), m.events.statusOf(3)], ['warning', 'error']);
      assert.match(m.events.labelOf(3), /error: boom/);
      assert.deepEqual((await runChecks(m, 'verify')).findings, []);
    });
    await withTemp(JSON.stringify(stream[3]) + '\n', 'out.jsonl', async (p) => {
      const r = await runChecks(await loadTrace(p, { format: 'gemini-cli' }), 'verify');
      assert.deepEqual(r.findings, []);
    });
  });

  it('--output-format json of a failed run: {session_id, error} without stats', async () => {
    const doc = { session_id: 's2', error: { type: 'FatalAuthenticationError', message: 'Invalid auth method selected.', code: 41 } };
    await withTemp(JSON.stringify(doc, null, 2), 'out.json', async (p) => {
      const m = await loadTrace(p);
      assert.equal(m.format, 'gemini-cli');
      assert.equal(summarize(m).dialect, 'json-output');
      assert.equal(summarize(m).totals.errors, 1);
    });
  });
});
