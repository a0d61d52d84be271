// Issue 37: the transcript of a Claude Code, Codex and Gemini CLI session shows each message, tool call and result
// once, in the viewer's transcript and in export --markdown. For every real-writer session, what the file holds is
// counted here from the raw lines (independently of the adapters and of chatContent), then looked for in both.
import { strict as assert } from 'node:assert';
import { loadTrace } from '../../../src/core/loadTrace';
import type { TraceModel } from '../../../src/core/traceModel';
import type { ChatPart, TranscriptBlock } from '../../../src/protocol';
import { traceToMarkdown } from '../../../src/report/markdown/markdownTranscript';
import { markdownAsWritten } from '../../../src/report/markdown/markdownText';
import { buildTranscriptIndex } from '../../../src/viewer/transcript/transcriptIndex';
import { transcriptPage } from '../../../src/viewer/transcript/transcriptPage';
import { jsonLines, writerFiles } from '../../helpers/writerCorpus';

/** What a session holds, from its raw lines: call ids, result ids, and the texts said (prompts, answers, reasoning). */
interface Held {
  calls: Set<string>;
  results: Set<string>;
  texts: Set<string>;
  /** Formats whose calls carry no id in the transcript (Gemini stream-json): how many calls and results. */
  unnamed?: { calls: number; results: number };
}

const blocksOf = (v: any): any[] => (Array.isArray(v?.message?.content) ? v.message.content : []);
const joined = (xs: unknown): string => (Array.isArray(xs) ? xs.map((x: any) => (typeof x === 'string' ? x : x?.text ?? '')).filter((t) => t !== '').join('\n') : typeof xs === 'string' ? xs : '');

function claudeHeld(lines: { value: any }[]): Held {
  const h: Held = { calls: new Set(), results: new Set(), texts: new Set() };
  for (const { value: v } of lines) {
    if (v.type === 'assistant') {
      for (const b of blocksOf(v)) {
        if (b.type === 'tool_use') h.calls.add(b.id);
        if (b.type === 'text' && b.text.trim()) h.texts.add(b.text.trim());
      }
    }
    if (v.type === 'user') for (const b of blocksOf(v)) if (b.type === 'tool_result') h.results.add(b.tool_use_id);
    // A prompt the user typed: a string body, on a line that is no meta or compact-summary line.
    if (v.type === 'user' && typeof v.message?.content === 'string' && !v.isMeta && !v.isCompactSummary && !/^\s*</.test(v.message.content)) h.texts.add(v.message.content.trim());
  }
  return h;
}

const CODEX_CONTEXT = /^\s*</;

function codexHeld(lines: { value: any }[]): Held {
  const h: Held = { calls: new Set(), results: new Set(), texts: new Set() };
  for (const { value: v } of lines) {
    const p = v.payload ?? {};
    if (v.type === 'response_item') {
      if (['function_call', 'custom_tool_call', 'local_shell_call'].includes(p.type)) h.calls.add(p.call_id);
      if (String(p.type).endsWith('_call_output')) h.results.add(p.call_id);
      if (p.type === 'message' && p.role !== 'developer') {
        const t = joined(p.content).trim();
        if (t && !CODEX_CONTEXT.test(t)) h.texts.add(t);
      }
      if (p.type === 'reasoning' && joined(p.summary).trim()) h.texts.add(joined(p.summary).trim());
    }
    if (v.type === 'event_msg' && p.type === 'item_completed' && p.item?.type === 'AgentMessage') h.texts.add(joined(p.item.content).trim());
    if (v.type === 'event_msg' && (p.type === 'agent_message' || p.type === 'user_message')) h.texts.add(String(p.message).trim());
    // codex exec --json: the answers and reasoning are items.
    if (v.type === 'item.completed' && (v.item?.type === 'agent_message' || v.item?.type === 'reasoning') && v.item.text?.trim()) h.texts.add(v.item.text.trim());
  }
  return h;
}

function geminiHeld(lines: { value: any }[]): Held {
  const h: Held = { calls: new Set(), results: new Set(), texts: new Set() };
  if (lines[0]?.value.type === 'init') {
    // stream-json: tool_use and tool_result lines; an answer is the run of its delta chunks.
    let calls = 0;
    let results = 0;
    for (const { value: v } of lines) {
      if (v.type === 'tool_use') calls++;
      if (v.type === 'tool_result') results++;
      if (v.type === 'message' && v.role === 'user') h.texts.add(String(v.content).trim());
    }
    h.unnamed = { calls, results };
    return h;
  }
  // A chat recording: the last version of each message id.
  const last = new Map<string, any>();
  for (const { value: v } of lines) if (typeof v.id === 'string' && (v.type === 'user' || v.type === 'gemini')) last.set(v.id, v);
  for (const m of last.values()) {
    for (const tc of m.toolCalls ?? []) h.calls.add(tc.id);
    for (const c of Array.isArray(m.content) ? m.content : []) if (c.functionResponse) h.results.add(c.functionResponse.id);
    const t = typeof m.content === 'string' ? m.content : joined(m.content);
    if (t.trim() && !/^\s*</.test(t)) h.texts.add(t.trim());
  }
  return h;
}

const SESSIONS: { file: string; held: (lines: { value: any }[]) => Held }[] = [
  ...writerFiles('claude-code', (p) => p.endsWith('.jsonl') && !p.includes('/subagents/')).map((file) => ({ file, held: claudeHeld })),
  ...writerFiles('codex').map((file) => ({ file, held: codexHeld })),
  ...writerFiles('gemini-cli').map((file) => ({ file, held: geminiHeld })),
];

async function transcript(model: TraceModel): Promise<TranscriptBlock[]> {
  const index = buildTranscriptIndex(model);
  const out: TranscriptBlock[] = [];
  const calls = new Map();
  for (let start = 0; start < index.nodes.length; start += 200) out.push(...(await transcriptPage(model, index, start, 200, calls)));
  return out;
}

const partsOf = (blocks: TranscriptBlock[]): ChatPart[] => blocks.flatMap((b) => b.messages.flatMap((m) => m.parts));
const count = <T>(xs: T[], keep: (x: T) => boolean) => xs.filter(keep).length;
const occurrences = (text: string, needle: string) => text.split(needle).length - 1;
const rel = (f: string) => f.slice(f.search(/(claude-code|codex|gemini-cli)-\d/));

function depth(m: TraceModel): number {
  const d: number[] = [];
  for (let i = 0; i < m.events.size; i++) d.push(m.events.parent(i) < 0 ? 0 : d[m.events.parent(i)] + 1);
  return Math.max(0, ...d);
}

describe('transcript once: each message, tool call and result of a real session once (issue 37)', () => {
  it('finds Claude Code, Codex and Gemini CLI sessions', () => {
    for (const tool of ['claude-code', 'codex', 'gemini-cli']) assert.ok(SESSIONS.filter((s) => s.file.includes(`/${tool}-`)).length >= 4, tool);
  });

  for (const { file, held } of SESSIONS) {
    it(`${rel(file)}: in the transcript and in export --markdown, each once; tree at most 8 levels deep`, async () => {
      const m = await loadTrace(file);
      const h = held(jsonLines(file));
      assert.ok(depth(m) <= 8, `depth ${depth(m)}`);
      const parts = partsOf(await transcript(m));
      const md = await traceToMarkdown(m);
      for (const id of h.calls) {
        assert.equal(count(parts, (p) => p.type === 'toolCall' && p.id === id), 1, `transcript: call ${id}`);
        assert.equal((md.match(new RegExp(`\\*\\*Tool call\\*\\* \`[^\`]+\` · \`${id}\``, 'g')) ?? []).length, 1, `markdown: call ${id}`);
      }
      for (const id of h.results) {
        assert.equal(count(parts, (p) => p.type === 'toolResult' && p.id === id), 1, `transcript: result of ${id}`);
        assert.equal(occurrences(md, `**Tool result** · \`${id}\``), 1, `markdown: result of ${id}`);
      }
      if (h.unnamed) {
        assert.equal(count(parts, (p) => p.type === 'toolCall'), h.unnamed.calls, 'transcript: calls');
        assert.equal(count(parts, (p) => p.type === 'toolResult'), h.unnamed.results, 'transcript: results');
        assert.equal(occurrences(md, '**Tool call**'), h.unnamed.calls, 'markdown: calls');
      }
      for (const text of h.texts) {
        const said = count(parts, (p) => (p.type === 'text' || p.type === 'thinking') && p.text.trim() === text);
        assert.equal(said, 1, `transcript: ${JSON.stringify(text.slice(0, 60))}`);
        // In Markdown, a one-line text long enough not to be part of another (a collapsed one is in <details>).
        if (!text.includes('\n') && text.length >= 12) assert.equal(occurrences(md, markdownAsWritten(text)), 1, `markdown: ${JSON.stringify(text.slice(0, 60))}`);
      }
      assert.ok(h.texts.size + h.calls.size > 0 || h.unnamed !== undefined, 'the session holds something');
    });
  }

  it('encrypted reasoning reads as its size, never as the ciphertext', async () => {
    const file = writerFiles('codex').find((f) => jsonLines(f).some((l) => typeof l.value.payload?.encrypted_content === 'string' && !joined(l.value.payload.summary)))
      ?? writerFiles('codex').find((f) => jsonLines(f).some((l) => typeof l.value.payload?.encrypted_content === 'string'))!;
    const m = await loadTrace(file);
    const enc: string[] = jsonLines(file).map((l) => l.value.payload?.encrypted_content).filter((e): e is string => typeof e === 'string');
    const parts = partsOf(await transcript(m));
    const md = await traceToMarkdown(m);
    for (const e of enc) {
      assert.ok(!parts.some((p) => 'text' in p && typeof p.text === 'string' && p.text.includes(e)), 'no ciphertext in the transcript');
      assert.ok(!md.includes(e), 'no ciphertext in the markdown');
    }
  });
});
