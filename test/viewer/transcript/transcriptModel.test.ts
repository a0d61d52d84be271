import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import type { ChatPart, TranscriptBlock } from '../../../src/protocol';
import { blockIndexOf, buildTranscriptIndex } from '../../../src/viewer/transcript/transcriptIndex';
import { transcriptPage } from '../../../src/viewer/transcript/transcriptPage';
import { corpusPath, WRITER_CORPUS } from '../../helpers/corpus';

const one = (dir: string) => join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))!);
const CLAUDE_FAIL = one(join(WRITER_CORPUS, 'claude-code-2.1.332/shell-fail/projects/-home-user-project'));
const CLAUDE_OK = one(join(WRITER_CORPUS, 'claude-code-2.1.332/shell-ok/projects/-home-user-project'));
const CODEX_FAIL = one(join(WRITER_CORPUS, 'codex-0.171.0/shell-fail/sessions/2026/12/01'));
const GEMINI_OK = one(join(WRITER_CORPUS, 'gemini-cli-0.61.0/shell-ok/tmp/project/chats'));
const OTLP = join(WRITER_CORPUS, 'otel-js-2.12.1/otlp-traces.json');
const MURMUR = corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl');

async function transcript(path: string): Promise<TranscriptBlock[]> {
  const model = await loadTrace(path);
  const index = buildTranscriptIndex(model);
  return transcriptPage(model, index, 0, 200, new Map());
}

const parts = (blocks: TranscriptBlock[]): ChatPart[] => blocks.flatMap((b) => b.messages.flatMap((m) => m.parts));
const results = (blocks: TranscriptBlock[]) => parts(blocks).filter((p): p is Extract<ChatPart, { type: 'toolResult' }> => p.type === 'toolResult');
const calls = (blocks: TranscriptBlock[]) => parts(blocks).filter((p): p is Extract<ChatPart, { type: 'toolCall' }> => p.type === 'toolCall');

describe('transcript model on real-writer files (issue 15)', () => {
  it('Claude Code shell-fail: prompt, reply, the Bash call as a shell command, its failure as exit code 2 with the message', async () => {
    const blocks = await transcript(CLAUDE_FAIL);
    assert.deepEqual(blocks.map((b) => b.line), [3, 17, 18, 21, 24]);
    assert.deepEqual(calls(blocks).map((c) => c.view), [{ kind: 'shell', command: 'ls /nonexistent', cwd: null }]);
    const [r] = results(blocks);
    assert.equal(r.toolName, 'Bash');
    assert.deepEqual(r.shell, { exitCode: 2, stdout: '', stderr: "ls: cannot access '/nonexistent': No such file or directory", combined: true });
    assert.equal(blocks[3].status, 'error');
    assert.ok(blocks[1].tokensIn! > 0 && blocks[1].tokensOut! > 0, 'token badges come from the event');
  });

  it('Claude Code shell-ok: stdout from toolUseResult, exit code 0', async () => {
    const [r] = results(await transcript(CLAUDE_OK));
    assert.deepEqual(r.shell, { exitCode: 0, stdout: 'hello', stderr: '' });
  });

  it('Codex shell-fail: exec_command, "Process exited with code 2" and its output', async () => {
    const blocks = await transcript(CODEX_FAIL);
    assert.deepEqual(calls(blocks).map((c) => c.view), [{ kind: 'shell', command: 'ls /nonexistent', cwd: null }]);
    const [r] = results(blocks);
    assert.equal(r.toolName, 'exec_command');
    assert.equal(r.shell?.exitCode, 2);
    assert.match(r.shell!.stdout, /^ls: cannot access '\/nonexistent': No such file or directory\n$/);
    assert.ok(blocks.some((b) => b.messages.some((m) => m.role === 'assistant' && m.parts.some((p) => p.type === 'text' && /The command failed/.test(p.text)))));
  });

  it('Gemini CLI and OTLP GenAI: inline tool calls reach the transcript', async () => {
    const gemini = await transcript(GEMINI_OK);
    assert.ok(calls(gemini).length >= 1, 'Gemini tool call');
    assert.ok(gemini.some((b) => b.category === 'inference'));
    const otlp = await transcript(OTLP);
    assert.deepEqual([...new Set(otlp.map((b) => b.category))].sort(), ['inference', 'run', 'tool']);
    // The export is one JSON line holding every span: each block shows its own span, not the whole line.
    const tools = otlp.filter((b) => b.category === 'tool');
    assert.deepEqual(calls(tools).map((c) => c.view), [{ kind: 'shell', command: 'echo hello', cwd: null }, { kind: 'shell', command: 'ls /nonexistent', cwd: null }]);
    assert.deepEqual(results(tools).map((r) => [r.shell?.exitCode, r.isError]), [[0, false], [2, true]]);
    const failed = tools[1].messages.find((m) => m.path === 'status.message');
    assert.deepEqual(failed?.parts, [{ type: 'text', text: 'ls exited with status 2' }], 'the span status stays a message of its own');
    assert.ok(otlp.filter((b) => b.category === 'inference').every((b) => b.messages.length === 0), 'chat spans without captured content hold no one else\'s messages');
  });

  it('murmur: blobs an earlier event referenced are marked "same as line N" (the tools blob shown once)', async () => {
    const blocks = await transcript(MURMUR);
    const refs = blocks.flatMap((b) => b.refs.map((r) => ({ line: b.line, field: r.ref.field, same: r.sameAsLine })));
    const tools = refs.filter((r) => r.field === 'tools_sha');
    assert.ok(tools.length >= 2, 'tools_sha on every inference');
    assert.equal(tools.filter((r) => r.same === null).length, 1, 'shown once');
    assert.ok(tools.slice(1).every((r) => r.same === tools[0].line));
    assert.deepEqual(refs.find((r) => r.field === 'system_sha'), { line: 3, field: 'system_sha', same: 1 }, 'the same system prompt as the session start');
    const m0 = refs.filter((r) => r.field === 'message_shas[0]');
    assert.equal(m0[1].same, m0[0].line, 'a message resent with the next inference is not shown again');
  });

  it('blockIndexOf finds the block of an event or the last one before it', async () => {
    const model = await loadTrace(CLAUDE_FAIL);
    const index = buildTranscriptIndex(model);
    const at = (line: number) => { let i = 0; while (model.events.lineOf(i) !== line) i++; return i; };
    assert.equal(blockIndexOf(index, model, at(21)), 3);
    assert.equal(blockIndexOf(index, model, at(20)), 2, 'a non-conversation line maps to the block before it');
  });
});
