import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WRITER_CORPUS } from '../helpers/corpus';
import { filesUnder } from '../helpers/writerCorpus';

// The real-writer corpus and its generator (`npm run corpus`, scripts/corpus/): the mock's OpenAI Chat Completions
// route that drives Copilot CLI, pi, Qwen Code, opencode and Continue (issue 38), and the folders it writes.

const ROOT = resolve(__dirname, '..', '..');
const importMjs = (file: string): Promise<any> => import(pathToFileURL(join(ROOT, 'scripts', 'corpus', file)).href);

interface Chunk { choices: { delta?: any; finish_reason?: string | null }[]; usage?: any }

/** POSTs a Chat Completions request to the mock and reads its SSE stream back into chunks. */
async function chat(url: string, body: object): Promise<{ chunks: Chunk[]; done: boolean; contentType: string }> {
  const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  const text = await res.text();
  const data = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
  return { chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d)), done: data[data.length - 1] === '[DONE]', contentType: res.headers.get('content-type') ?? '' };
}

/** The streamed message put together: its text, its tool calls (arguments parsed), its finish reason and usage. */
function assemble(chunks: Chunk[]): { text: string; calls: { id: string; name: string; args: any }[]; finish?: string; usage?: any } {
  let text = '';
  const calls: { id: string; name: string; args: string }[] = [];
  let finish: string | undefined;
  let usage: any;
  for (const c of chunks) {
    if (c.usage) usage = c.usage;
    for (const ch of c.choices) {
      if (ch.finish_reason) finish = ch.finish_reason;
      if (typeof ch.delta?.content === 'string') text += ch.delta.content;
      for (const tc of ch.delta?.tool_calls ?? []) {
        if (tc.id) calls[tc.index] = { id: tc.id, name: tc.function.name, args: '' };
        calls[tc.index].args += tc.function?.arguments ?? '';
      }
    }
  }
  return { text, calls: calls.map((c) => ({ ...c, args: JSON.parse(c.args) })), finish, usage };
}

const BASH = { type: 'function', function: { name: 'bash', description: 'Run a shell command', parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] } } };

describe('npm run corpus: the mock model API and the real-writer folders (issue 38)', () => {
  let mock: any;
  before(async () => {
    const { startMockServer } = await importMjs('mock-model-server.mjs');
    mock = await startMockServer();
  });
  after(async () => { await mock?.close(); });

  it('answers Chat Completions as a streamed tool call, then a text answer once the tool result is in, with the usage chunk asked for', async () => {
    mock.setScenario('shell-ok');
    const messages: any[] = [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: 'Run echo hello and tell me what it printed.' }];
    const first = await chat(mock.url, { model: 'gpt-4.1', stream: true, stream_options: { include_usage: true }, messages, tools: [BASH] });
    assert.match(first.contentType, /text\/event-stream/);
    assert.ok(first.done, 'the stream ends with data: [DONE]');
    const call = assemble(first.chunks);
    assert.equal(call.finish, 'tool_calls');
    assert.deepEqual(call.calls.map((c) => [c.name, c.args.command]), [['bash', 'echo hello']]);
    const last = first.chunks[first.chunks.length - 1];
    assert.deepEqual(last.choices, [], 'with include_usage the usage comes in a last chunk without choices');
    assert.ok(last.usage.prompt_tokens > 0 && last.usage.completion_tokens > 0);
    assert.equal(last.usage.total_tokens, last.usage.prompt_tokens + last.usage.completion_tokens);

    messages.push({ role: 'assistant', content: call.text, tool_calls: call.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) });
    messages.push({ role: 'tool', tool_call_id: call.calls[0].id, content: 'hello\n' });
    const second = assemble((await chat(mock.url, { model: 'gpt-4.1', stream: true, messages, tools: [BASH] })).chunks);
    assert.equal(second.finish, 'stop');
    assert.deepEqual(second.calls, []);
    assert.match(second.text, /printed: hello/);
    assert.ok(second.usage && second.usage.prompt_tokens_details.cached_tokens > 0, 'without include_usage the usage rides on the finish chunk; a later step reads from the cache');
  });

  it('fills a subagent tool from its schema (opencode names its general agent `general` in the description, Qwen an enum) and hands the tagged prompt to the subagent', async () => {
    mock.setScenario('subagent');
    const task = (props: object) => ({ type: 'function', function: { name: 'task', description: 'Launch a subagent. Available agent types: - general: multi-step tasks - explore: read-only search', parameters: { type: 'object', properties: { description: { type: 'string' }, prompt: { type: 'string' }, ...props }, required: ['description', 'prompt'] } } });
    const opencodeLike = assemble((await chat(mock.url, { model: 'm', stream: true, messages: [{ role: 'user', content: 'Use a subagent to run echo hello.' }], tools: [BASH, task({ subagent_type: { type: 'string', description: 'The agent to use' } })] })).chunks);
    assert.equal(opencodeLike.calls[0].name, 'task');
    assert.equal(opencodeLike.calls[0].args.subagent_type, 'general');
    assert.match(opencodeLike.calls[0].args.prompt, /^SUBAGENT-TASK/);
    const enumLike = assemble((await chat(mock.url, { model: 'm', stream: true, messages: [{ role: 'user', content: 'Use a subagent.' }], tools: [BASH, task({ subagent_type: { type: 'string', enum: ['explore', 'general-purpose'] } })] })).chunks);
    assert.equal(enumLike.calls[0].args.subagent_type, 'general-purpose');
    const inner = assemble((await chat(mock.url, { model: 'm', stream: true, messages: [{ role: 'user', content: opencodeLike.calls[0].args.prompt }], tools: [BASH] })).chunks);
    assert.deepEqual(inner.calls.map((c) => [c.name, c.args.command]), [['bash', 'echo hello']], 'the subagent runs the shell');
  });

  it('answers a request without tools (a title or summary) with a short text, not a tool call', async () => {
    mock.setScenario('shell-ok');
    const side = assemble((await chat(mock.url, { model: 'm', stream: true, messages: [{ role: 'user', content: 'Generate a title' }] })).chunks);
    assert.deepEqual(side.calls, []);
    assert.equal(side.text, 'Mock session');
  });

  it('edit: reads README.md, writes notes.txt, edits it and reads a missing file with the tools the request offers, their arguments from their schemas (Copilot-like view / create / edit)', async () => {
    mock.setScenario('edit');
    const cwd = '/tmp/scratch-home-for-this-test/project';
    mock.setCwd(cwd);
    const fn = (name: string, properties: object, required: string[]) => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties, required } } });
    const tools = [BASH, fn('view', { path: { type: 'string', description: 'Full absolute path to file or directory.' } }, ['path']), fn('create', { path: { type: 'string' }, file_text: { type: 'string' } }, ['path', 'file_text']), fn('edit', { path: { type: 'string' }, old_str: { type: 'string' }, new_str: { type: 'string' } }, ['path', 'old_str', 'new_str'])];
    const messages: any[] = [{ role: 'user', content: 'Read README.md, write notes.txt, edit it, then try to read missing.txt.' }];
    const seen: [string, any][] = [];
    // the scrub the generator applies to what a CLI writes: the streamed pieces must scrub to the scrubbed whole
    const scrub = (t: string): string => t.split(cwd).join('/home/user/project');
    for (const result of ['# demo project\n', 'Created file', 'File updated', 'Path does not exist']) {
      const res = await chat(mock.url, { model: 'm', stream: true, messages, tools });
      const pieces = res.chunks.flatMap((c) => c.choices.flatMap((ch) => (ch.delta?.tool_calls ?? []).map((tc: any) => tc.function?.arguments ?? '')));
      assert.equal(pieces.map(scrub).join(''), scrub(pieces.join('')), 'no streamed piece cuts the project path');
      const call = assemble(res.chunks);
      assert.equal(call.finish, 'tool_calls');
      seen.push([call.calls[0].name, call.calls[0].args]);
      messages.push({ role: 'assistant', content: call.text, tool_calls: call.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) });
      messages.push({ role: 'tool', tool_call_id: call.calls[0].id, content: result });
    }
    assert.deepEqual(seen, [
      ['view', { path: `${cwd}/README.md` }],
      ['create', { path: `${cwd}/notes.txt`, file_text: 'Notes from the corpus run.\nStatus: draft\n' }],
      ['edit', { path: `${cwd}/notes.txt`, old_str: 'Status: draft', new_str: 'Status: edited' }],
      ['view', { path: `${cwd}/missing.txt` }],
    ]);
    const last = assemble((await chat(mock.url, { model: 'm', stream: true, messages, tools })).chunks);
    assert.equal(last.finish, 'stop');
    assert.match(last.text, /The last call failed: missing\.txt does not exist/);
  });

  it('edit: an edit refused until the file is read (Continue\'s MultiEdit) is followed by a read of it and the edit again; a list-of-edits schema gets one {oldText, newText}', async () => {
    mock.setScenario('edit');
    mock.setCwd('/p');
    const fn = (name: string, properties: object) => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties, required: Object.keys(properties) } } });
    const tools = [fn('Read', { filepath: { type: 'string' } }), fn('Write', { filepath: { type: 'string' }, content: { type: 'string' } }), fn('MultiEdit', { file_path: { type: 'string' }, edits: { type: 'array', items: { type: 'object', properties: { oldText: { type: 'string' }, newText: { type: 'string' } } } } })];
    const messages: any[] = [{ role: 'user', content: 'Edit.' }];
    const seen: string[] = [];
    const results = ['# demo', 'Successfully created file', 'You must use the Read tool to read /p/notes.txt before editing it.', 'Notes', 'Successfully edited', 'Error executing tool Read: File does not exist: /p/missing.txt'];
    for (const result of results) {
      const call = assemble((await chat(mock.url, { model: 'm', stream: true, messages, tools })).chunks).calls[0];
      assert.ok(call, `a call after ${seen.length} results`);
      seen.push(`${call.name} ${JSON.stringify(call.args)}`);
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
    const multi = `MultiEdit ${JSON.stringify({ file_path: '/p/notes.txt', edits: [{ oldText: 'Status: draft', newText: 'Status: edited' }] })}`;
    assert.deepEqual(seen, ['Read {"filepath":"/p/README.md"}', 'Write {"filepath":"/p/notes.txt","content":"Notes from the corpus run.\\nStatus: draft\\n"}', multi, 'Read {"filepath":"/p/notes.txt"}', multi, 'Read {"filepath":"/p/missing.txt"}']);
    assert.equal(assemble((await chat(mock.url, { model: 'm', stream: true, messages, tools })).chunks).finish, 'stop');
  });

  it('edit on the Responses API (Codex): no read tool, so apply_patch (a freeform custom tool) adds the file, updates it, and patches the missing file', async () => {
    mock.setScenario('edit');
    mock.setCwd('/p');
    const tools = [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }, { type: 'custom', name: 'apply_patch', format: { type: 'grammar' } }];
    const input: any[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Edit.' }] }];
    const patches: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${mock.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-5.5', input, tools }) });
      const events = (await res.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
      const done = events.find((e) => e.type === 'response.completed').response.output.find((o: any) => o.type === 'custom_tool_call');
      assert.equal(done.name, 'apply_patch');
      patches.push(done.input);
      input.push(done, { type: 'custom_tool_call_output', call_id: done.call_id, output: 'Success.' });
    }
    assert.match(patches[0], /^\*\*\* Begin Patch\n\*\*\* Add File: notes\.txt\n\+Notes from the corpus run\.\n\+Status: draft\n\*\*\* End Patch\n$/);
    assert.match(patches[1], /\*\*\* Update File: notes\.txt\n@@\n Notes from the corpus run\.\n-Status: draft\n\+Status: edited\n/);
    assert.match(patches[2], /\*\*\* Update File: missing\.txt\n/);
  });

  it('edit on the Anthropic API: a request with Read / Write / Edit and no Bash is the main agent\'s, answered with a Read of an absolute path, not as a side request', async () => {
    mock.setScenario('edit');
    mock.setCwd('/p');
    const tool = (name: string, properties: object) => ({ name, description: name, input_schema: { type: 'object', properties, required: Object.keys(properties) } });
    const res = await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude', stream: true, messages: [{ role: 'user', content: 'Edit.' }], tools: [tool('Read', { file_path: { type: 'string' } }), tool('Write', { file_path: { type: 'string' }, content: { type: 'string' } }), tool('Edit', { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } })] }) });
    const events = (await res.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    const start = events.find((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use');
    assert.equal(start?.content_block.name, 'Read');
    const json = events.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'input_json_delta').map((e) => e.delta.partial_json).join('');
    assert.deepEqual(JSON.parse(json), { file_path: '/p/README.md' });
  });

  it('every agent CLI folder has an edit case that ran to the end: notes.txt written and edited, a failed call on missing.txt', () => {
    const versions = JSON.parse(readFileSync(join(ROOT, 'scripts', 'corpus', 'versions.json'), 'utf8'));
    for (const [key, t] of Object.entries(versions.tools as Record<string, { version: string }>)) {
      const dir = join(WRITER_CORPUS, `${key}-${t.version}`, 'edit');
      assert.ok(existsSync(join(dir, 'SOURCE.md')), `${key}: edit/SOURCE.md`);
      const source = readFileSync(join(dir, 'SOURCE.md'), 'utf8');
      assert.doesNotMatch(source, /\*\*FAILED\*\*/, `${key}: the edit case ran`);
      assert.match(source, /`project\/notes\.txt` \(42 B\)/, `${key}: notes.txt ends edited ("Status: edited", 42 bytes)`);
      const text = filesUnder(dir, (p) => !p.endsWith('SOURCE.md')).map((f) => readFileSync(f, 'utf8')).join('\n');
      assert.match(text, /Status: edited/, `${key}: the edit is recorded`);
      assert.match(text, /missing\.txt/, `${key}: the call on the missing file is recorded`);
    }
  });

  it('Continue\'s subagent-tui case holds a Subagent call that finished with the subagent\'s report', () => {
    const dir = join(WRITER_CORPUS, 'continue-1.5.47', 'subagent-tui');
    const session = filesUnder(join(dir, '.continue', 'sessions'), (p) => /[0-9a-f-]{36}\.json$/.test(p));
    assert.equal(session.length, 1);
    const doc = JSON.parse(readFileSync(session[0], 'utf8'));
    const states = doc.history.flatMap((h: any) => h.toolCallStates ?? []);
    assert.deepEqual(states.map((s: any) => [s.toolCall.function.name, s.status]), [['Subagent', 'done']]);
    assert.match(states[0].output[0].content, /^Report: .*hello[\s\S]*status: completed/);
  });

  it('every folder is a pinned version with a SOURCE.md that lists each of its files, listed in the README, with no scratch path left', async () => {
    const versions = JSON.parse(readFileSync(join(ROOT, 'scripts', 'corpus', 'versions.json'), 'utf8'));
    const readme = readFileSync(join(WRITER_CORPUS, 'README.md'), 'utf8');
    const folders = readdirSync(WRITER_CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    const pinned = Object.entries(versions.tools as Record<string, { version: string }>).map(([key, t]) => `${key}-${t.version}`);
    for (const tool of pinned) assert.ok(folders.includes(tool), `test/corpus/${tool}/ (pinned in versions.json) exists`);
    for (const name of ['copilot-cli-1.0.102', 'pi-0.73.1', 'qwen-code-0.24.4', 'opencode-1.18.33', 'continue-1.5.47']) assert.ok(pinned.includes(name), `${name} is pinned`);
    for (const folder of folders) {
      assert.ok(pinned.includes(folder) || folder.startsWith('otel-js-') || folder === `ai-sdk-${versions.aiSdk.ai}`, `${folder} is a pinned tool version`);
      assert.ok(readme.includes(`[\`${folder}/\`](${folder}/SOURCE.md)`), `README.md lists ${folder}`);
      const dir = join(WRITER_CORPUS, folder);
      const source = readFileSync(join(dir, 'SOURCE.md'), 'utf8');
      for (const file of filesUnder(dir, (p) => !p.endsWith(`${sep}SOURCE.md`))) {
        const rel = relative(dir, file).split(sep).join('/');
        // A case written alone (`npm run corpus -- --cases <id>`) has its own SOURCE.md, naming its files from its folder.
        const [caseId, ...inCase] = rel.split('/');
        const caseSource = join(dir, caseId, 'SOURCE.md');
        const listed = source.includes(`\`${rel}\``) || (existsSync(caseSource) && readFileSync(caseSource, 'utf8').includes(`\`${inCase.join('/')}\``));
        assert.ok(listed, `${folder}/SOURCE.md or ${folder}/${caseId}/SOURCE.md lists ${rel}`);
        const text = readFileSync(file, 'utf8');
        assert.doesNotMatch(text, /atv-corpus-|\/tmp\/corpus-tools/, `${folder}/${rel} has no scratch path`);
        assert.ok(!/\/(root|home\/(?!user\b)[^/"\s]+)\//.test(text), `${folder}/${rel} names no machine home`);
      }
    }
  });

  it('the five issue-38 tools ran every case to the end (no FAILED row) and wrote a session file in each', () => {
    const sessionFile: Record<string, RegExp> = {
      'copilot-cli-1.0.102': /^\.copilot\/session-state\/[0-9a-f-]+\/events\.jsonl$/,
      'pi-0.73.1': /^\.pi\/agent\/sessions\/--home-user-project--\/[^/]+\.jsonl$/,
      'qwen-code-0.24.4': /^\.qwen\/projects\/-home-user-project\/chats\/[0-9a-f-]+\.jsonl$/,
      'opencode-1.18.33': /^export\.json$/,
      'continue-1.5.47': /^\.continue\/sessions\/[0-9a-f-]{36}\.json$/,
    };
    for (const [folder, re] of Object.entries(sessionFile)) {
      const dir = join(WRITER_CORPUS, folder);
      assert.ok(existsSync(dir), folder);
      assert.doesNotMatch(readFileSync(join(dir, 'SOURCE.md'), 'utf8'), /\*\*FAILED\*\*/, `${folder}: every case ran`);
      const cases = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
      assert.deepEqual(cases.filter((c) => ['text', 'shell-ok', 'shell-fail', 'resume'].includes(c)), ['resume', 'shell-fail', 'shell-ok', 'text']);
      for (const c of cases) {
        const files = filesUnder(join(dir, c), () => true).map((f) => relative(join(dir, c), f).split(sep).join('/'));
        assert.ok(files.some((f) => re.test(f)), `${folder}/${c} has its session file (${files.join(', ')})`);
      }
    }
  });
});
