import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { extractChat, MAX_PART_CHARS } from '../../src/viewer/chatContent';
import { buildDetail, findObjectWithId } from '../../src/viewer/eventDetail';
import { findInTrace } from '../../src/viewer/findInTrace';
import { isSafeExternalUrl, parseViewMessage } from '../../src/protocol/validate';
import { renderViewerHtml } from '../../src/viewer/webviewHtml';
import { tempDir, tempFile } from '../helpers/tmp';
import { CORPUS_ROOT } from '../helpers/corpus';

const CORPUS = CORPUS_ROOT;
const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

describe('viewer host: messages from the webview are validated', () => {
  it('accepts well-formed messages', () => {
    assert.deepEqual(parseViewMessage('viewer', { type: 'requestRows', rowsVersion: 3, start: 0, count: 200 }), { type: 'requestRows', rowsVersion: 3, start: 0, count: 200 });
    assert.deepEqual(parseViewMessage('viewer', { type: 'select', node: -1 }), { type: 'select', node: -1 });
    assert.deepEqual(parseViewMessage('viewer', { type: 'findStep', direction: -1 }), { type: 'findStep', direction: -1 });
    assert.deepEqual(parseViewMessage('viewer', { type: 'rowsShown', modelVersion: 2 }), { type: 'rowsShown', modelVersion: 2 });
  });
  it('rejects unknown types, wrong shapes and out-of-range values', () => {
    for (const bad of [
      null,
      'ready',
      { type: 'eval', code: 'x' },
      { type: 'requestRows', rowsVersion: 1, start: -5, count: 10 },
      { type: 'requestRows', rowsVersion: 1, start: 0, count: 1e9 },
      { type: 'select', node: '3' },
      { type: 'select', node: 1.5 },
      { type: 'revealInTextEditor', line: 0 },
      { type: 'findStep', direction: 2 },
      { type: 'rowsShown', modelVersion: '2' },
      { type: 'rowsShown' },
      { type: 'openBlob', digest: '../../etc/passwd', algorithm: 'sha256' },
      { type: 'requestBlob', requestId: 1, digest: 'ABCDEF0123456789', algorithm: 'sha256' },
      { type: 'setFilter', filter: { kinds: [], status: 'everything' } },
    ]) {
      assert.equal(parseViewMessage('viewer', bad), null, JSON.stringify(bad));
    }
  });
  it('keeps a ready message even when its saved state is damaged', () => {
    assert.deepEqual(parseViewMessage('viewer', { type: 'ready', state: { detailTab: 'nope' } }), { type: 'ready', state: null });
  });
  it('opens only http(s) links', () => {
    assert.equal(isSafeExternalUrl('https://example.com/a'), true);
    assert.equal(isSafeExternalUrl('javascript:alert(1)'), false);
    assert.equal(isSafeExternalUrl('file:///etc/passwd'), false);
    assert.equal(isSafeExternalUrl('command:workbench.action.quit'), false);
    assert.equal(isSafeExternalUrl('not a url'), false);
  });
});

describe('viewer host: the page', () => {
  it('has a strict CSP: scripts only by nonce, no inline styles, nothing from outside', () => {
    const html = renderViewerHtml({ cspSource: 'https://res.example', scriptUri: 'https://res.example/dist/webview.js', styleUri: 'https://res.example/dist/webview.css', codiconUri: 'https://res.example/dist/codicon.css', nonce: 'abc123' });
    // The attribute is HTML-escaped (escapeHtml): its quotes stand as &#39;, as in the report page.
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)![1].replace(/&#39;/g, "'");
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc123'(;|$)/);
    assert.match(csp, /style-src https:\/\/res\.example 'nonce-abc123'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.match(html, /<script nonce="abc123" src="https:\/\/res\.example\/dist\/webview\.js">/);
    assert.match(html, /id="vscode-codicon-stylesheet"/);
  });
});

describe('viewer host: find in trace', () => {
  it('finds text inside events (not only labels), in tree order, also when the writer escaped it', async () => {
    const model = await loadTrace(SAMPLE, { format: 'generic' });
    const r = await findInTrace(model, 'REFUSED', { caseSensitive: false });
    assert.deepEqual(r.nodes.map((n) => model.events.lineOf(n)), [5, 8]);
    assert.deepEqual((await findInTrace(model, 'REFUSED', { caseSensitive: true })).nodes, []);
    const dir = tempDir();
    const f = tempFile('e.jsonl', '{"id":"a","text":"caf\\u00e9 \\"quoted\\"\\nnext"}\n{"id":"b","text":"plain"}\n', dir);
    const m2 = await loadTrace(f, { format: 'generic' });
    assert.deepEqual((await findInTrace(m2, 'café', { caseSensitive: false })).nodes, [0]);
    assert.deepEqual((await findInTrace(m2, '"quoted"', { caseSensitive: false })).nodes, [0]);
  });
  it('finds malformed lines and reports truncation', async () => {
    const model = await loadTrace(SAMPLE, { format: 'generic' });
    assert.deepEqual((await findInTrace(model, 'not json', { caseSensitive: false })).nodes, [-1]);
    const all = await findInTrace(model, 'ses_1', { caseSensitive: false, maxMatches: 3 });
    assert.equal(all.nodes.length, 3);
    assert.equal(all.truncated, true);
  });
});

describe('viewer host: chat content from real traces', () => {
  const lineOf = (file: string, n: number) => JSON.parse(readFileSync(file, 'utf8').split('\n')[n - 1]);
  it('claude-code: user text, assistant text with a tool call, tool results', () => {
    const f = join(CORPUS, 'other/claude-code/sample_session.jsonl');
    assert.deepEqual(extractChat(lineOf(f, 2)), [{ role: 'user', path: 'message', parts: [{ type: 'text', text: 'Create a hello world function' }] }]);
    const a = extractChat(lineOf(f, 3));
    assert.equal(a[0].role, 'assistant');
    assert.deepEqual(a[0].parts.map((p) => p.type), ['text', 'toolCall']);
    const call = a[0].parts[1];
    assert.ok(call.type === 'toolCall' && call.name === 'Write' && call.id === 'toolu_001');
    const res = extractChat(lineOf(f, 4))[0].parts[0];
    assert.ok(res.type === 'toolResult' && res.id === 'toolu_001');
  });
  it('deepstrike SDK dialect: flat llm_completed with JSON-string arguments, tool results', () => {
    const f = join(CORPUS, 'deepstrike/sdk-python/5ce9abd6-7731-43aa-8c84-1e53d53666dd.jsonl');
    const m = extractChat(lineOf(f, 4));
    assert.equal(m[0].role, 'assistant');
    const call = m[0].parts[1];
    assert.ok(call.type === 'toolCall');
    assert.deepEqual(call.args, { path: '.eslintrc.json' }, 'the JSON-encoded string is shown as the value');
    const r = extractChat(lineOf(f, 6));
    assert.equal(r[0].role, 'tool');
    const part = r[0].parts[0];
    assert.ok(part.type === 'toolResult' && part.text?.includes('"root": true') && !part.isError);
    const run = extractChat(lineOf(f, 1));
    assert.deepEqual(run.map((x) => x.role), ['goal', 'system_prompt']);
  });
  it('deepstrike core dialect and codex: role-tagged messages and content blocks', () => {
    const core = extractChat(lineOf(join(CORPUS, 'deepstrike/rust-core/97a2f782-238c-40a6-ae04-c4e2efb8f844.jsonl'), 3));
    assert.equal(core[0].role, 'assistant');
    assert.deepEqual(core[0].parts.map((p) => p.type), ['text', 'toolCall']);
    const codex = extractChat(lineOf(join(CORPUS, 'other/codex/sample_codex_session.jsonl'), 3));
    assert.deepEqual(codex[0].parts.map((p) => p.type), ['thinking', 'text']);
  });
  it('agentledger: messages inside the payload', () => {
    const m = extractChat(lineOf(join(CORPUS, 'agentledger/approval-granted/events.jsonl'), 5));
    assert.ok(m.some((x) => x.role === 'user' && x.path === 'payload.messages[0]'));
  });
  it('caps very long text and says how much was left out', () => {
    const m = extractChat({ message: { role: 'user', content: 'x'.repeat(MAX_PART_CHARS + 10) } });
    const p = m[0].parts[0];
    assert.ok(p.type === 'text' && p.text.length === MAX_PART_CHARS && p.omitted === 10);
  });
});

describe('viewer host: event details', () => {
  it('re-reads the exact line of an event and its parents', async () => {
    const model = await loadTrace(SAMPLE, { format: 'generic' });
    const d = await buildDetail(model, 4, []);
    assert.equal(d.raw, readFileSync(SAMPLE, 'utf8').split('\n')[4]);
    assert.deepEqual(d.ancestors.map((a) => a.line), [1, 3, 4]);
    assert.equal(d.status, 'error');
  });
  it('a Claude Code session: breadcrumbs follow the session (turn, step, call), the parent is the line parentUuid names', async () => {
    const file = join(resolve('test/corpus/claude-code-2.1.332'), 'subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl');
    const model = await loadTrace(file);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    const lineOfUuid = new Map(lines.map((v, k) => [v.uuid, k + 1]));
    const result = lines.findIndex((v) => v.type === 'user' && Array.isArray(v.message.content) && v.message.content[0].type === 'tool_result');
    const d = await buildDetail(model, result, []);
    // The prompt, the response's first line, the line holding the call.
    assert.deepEqual(d.ancestors.map((a) => a.line), [3, result - 1, result]);
    assert.match(d.ancestors[0].label, /^user: Use a subagent/);
    assert.equal(d.parentId, lines[result].parentUuid);
    assert.equal(d.parent?.line, lineOfUuid.get(lines[result].parentUuid));
    let longest = 0;
    for (let i = 0; i < model.events.size; i++) {
      const e = await buildDetail(model, i, []);
      longest = Math.max(longest, e.ancestors.length);
      const named = lines[i].parentUuid ?? lines[i].logicalParentUuid ?? null;
      assert.equal(e.parent?.line ?? null, named === null ? null : lineOfUuid.get(named) ?? null, `line ${i + 1}`);
    }
    assert.equal(longest, 3, 'a 35-line session: at most turn > step > call');
  });
  it('cuts very long lines and does not parse lines over the JSON limit', async () => {
    const f = tempFile('long.jsonl', JSON.stringify({ id: 'x', text: 'y'.repeat(5000) }) + '\n');
    const model = await loadTrace(f, { format: 'generic' });
    const d = await buildDetail(model, 0, [], { maxRawBytes: 100, maxJsonBytes: 1000 });
    assert.equal(d.raw.length, 100);
    assert.equal(d.rawTruncated, true);
    assert.equal(d.json, null);
    assert.match(d.jsonError ?? '', /too large/);
  });
  it('finds an event of a multi-line JSON document by its id (OTLP traceId/spanId)', async () => {
    const f = join(CORPUS, 'other/otlp/trace.json');
    const model = await loadTrace(f);
    assert.equal(model.document, true);
    const d = await buildDetail(model, 0, []);
    assert.ok(d.json !== null, d.jsonError ?? '');
    assert.deepEqual(findObjectWithId({ a: [{ spanId: 's1', name: 'x' }] }, 's1'), { spanId: 's1', name: 'x' });
    assert.equal(findObjectWithId({ parentSpanId: 's1' }, 's1'), null, 'a parent reference is not the event');
  });
});
