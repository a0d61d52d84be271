import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { layOutAgentHome, HomeFile } from '../helpers/agentHome';
import { runCliInProcess } from '../helpers/cliInProcess';
import { tempDir } from '../helpers/tmp';
import { SEARCH_INDEX_FILE } from '../../src/core/sessions/sessionSearch';
import { tracesRead } from '../helpers/readsUnder';

interface Hit {
  agent: string;
  file: string;
  sessionId: string | null;
  line: number;
  field: string;
  snippet: string;
}

/** The text of 1-based line `n` of a file. */
function lineOf(file: string, n: number): string {
  return readFileSync(file, 'utf8').split('\n')[n - 1] ?? '';
}

describe('agent-trace search, on a home laid out from the real-writer corpus', function () {
  this.timeout(120000);
  let home: string;
  let cache: string;
  let files: HomeFile[];
  const search = async (...args: string[]): Promise<{ code: number; hits: Hit[]; err: string }> => {
    const r = await runCliInProcess('search', ...args, '--json', '--root', home, '--cache', cache);
    return { code: r.code, hits: r.code <= 1 ? JSON.parse(r.out) : [], err: r.err };
  };

  before(() => {
    home = tempDir('atv-search-home-');
    cache = tempDir('atv-search-cache-');
    files = layOutAgentHome(home);
  });

  it('finds a prompt of the corpus across agents, at the line that holds it, with the contract\'s fields', async () => {
    const r = await search('"then try to read missing.txt" field:prompt');
    assert.equal(r.code, 0, r.err);
    const agents = new Set(r.hits.map((h) => h.agent));
    for (const a of ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'copilot-cli', 'pi', 'continue']) assert.ok(agents.has(a), `${a} in ${[...agents].join(', ')}`);
    for (const h of r.hits) {
      assert.deepEqual(Object.keys(h), ['agent', 'file', 'sessionId', 'line', 'field', 'snippet']);
      assert.equal(h.field, 'prompt');
      // A JSONL event is its line; a one-document session's event (Continue) starts at its line and holds the text below.
      const text = h.file.endsWith('.jsonl') ? lineOf(h.file, h.line) : readFileSync(h.file, 'utf8').split('\n').slice(h.line - 1, h.line + 5).join('\n');
      assert.ok(text.includes('then try to read missing.txt'), `${h.file}:${h.line}`);
      assert.ok(h.snippet.toLowerCase().includes('then try to read missing.txt'), h.snippet);
      assert.ok(files.some((f) => f.path === h.file), h.file);
    }
    assert.ok(statSync(join(cache, SEARCH_INDEX_FILE)).size > 0);
  });

  it('narrows by agent:, tool: and status:error', async () => {
    const all = (await search('missing.txt')).hits;
    const codex = await search('missing.txt agent:codex');
    assert.ok(codex.hits.length > 0 && codex.hits.length < all.length);
    assert.ok(codex.hits.every((h) => h.agent === 'codex'));
    const shell = await search('nonexistent tool:exec_command');
    assert.ok(shell.hits.length > 0);
    // The call's line names the tool; its output's line only the call's id (the event knows its tool).
    for (const h of shell.hits) assert.ok(h.field === 'tool-output' || lineOf(h.file, h.line).includes('exec_command'), `${h.file}:${h.line}`);
    assert.ok(shell.hits.some((h) => h.field === 'tool-input') && shell.hits.some((h) => h.field === 'tool-output'));
    assert.equal((await search('nonexistent tool:exec_command agent:claude-code')).code, 1);
    const failed = await search('missing.txt status:error');
    assert.ok(failed.hits.length > 0 && failed.hits.length < all.length, `${failed.hits.length} of ${all.length}`);
    const key = (h: Hit) => `${h.file}:${h.line}`;
    const allKeys = new Set(all.map(key));
    for (const h of failed.hits) assert.ok(allKeys.has(key(h)), key(h));
    // A failed shell call of the shell-fail scenario, as Codex records it (its output line).
    assert.ok((await search('nonexistent status:error agent:codex')).hits.some((h) => h.field === 'tool-output'));
    // --agent is the same narrowing as agent:.
    const r = await runCliInProcess('search', 'missing.txt', '--agent', 'codex', '--json', '--root', home, '--cache', cache);
    assert.deepEqual(JSON.parse(r.out), codex.hits);
  });

  it('reads no trace file on a second run: the index answers, snippets included (the index keeps their text)', async () => {
    await search('hello');
    const none = await tracesRead(home, () => search('qqqzzznothing'));
    assert.deepEqual(none, []);
    let hits: Hit[] = [];
    const read = await tracesRead(home, async () => (hits = (await search('PLUM')).hits));
    assert.ok(hits.length > 0);
    assert.ok(hits.every((h) => /plum/i.test(h.snippet)), hits.map((h) => h.snippet).join('\n'));
    assert.deepEqual(read, []);
  });

  it('indexes what people wrote, not a writer\'s metadata: Qwen\'s provenance "real_user" is no hit', async () => {
    assert.ok(files.some((f) => f.path.includes('.qwen') && readFileSync(f.path, 'utf8').includes('"provenance":"real_user"')), 'the home holds the value');
    // (The words "real" and "user" may still match text someone wrote; the value itself is in no indexed text.)
    const r = await search('real_user');
    assert.deepEqual(r.hits.filter((h) => h.snippet.includes('real_user')).map((h) => `${h.agent} ${h.field}: ${h.snippet}`), []);
    assert.deepEqual(r.hits.filter((h) => h.agent === 'qwen-code'), []);
  });

  it('exits 1 with no hits and 2 with a query it cannot read', async () => {
    const r = await search('qqqzzznothing');
    assert.equal(r.code, 1);
    assert.deepEqual(r.hits, []);
    const bad = await runCliInProcess('search', 'colour:red', '--root', home, '--cache', cache);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /unknown field "colour"/);
    assert.equal((await runCliInProcess('search', '"open', '--root', home, '--cache', cache)).code, 2);
    assert.equal((await runCliInProcess('search', '--root', home)).code, 2);
  });

  it('finds what a grown session adds, and forgets a deleted one', async () => {
    const pi = files.find((f) => f.tool === 'pi' && f.path.endsWith('.jsonl') && readFileSync(f.path, 'utf8').includes('then try to read missing.txt'))!;
    const lines = readFileSync(pi.path, 'utf8').split('\n').filter((l) => l !== '');
    const prompt = lines.find((l) => l.includes('then try to read missing.txt'))!;
    assert.equal((await search('quokkaplanet')).code, 1);
    const added = JSON.parse(prompt.replace('Read README.md, write notes.txt, edit it, then try to read missing.txt.', 'Tell me about the quokkaplanet.'));
    added.parentId = JSON.parse(lines[lines.length - 1]).id;
    added.id = 'f00dcafe';
    appendFileSync(pi.path, JSON.stringify(added) + '\n');
    const grown = await search('quokkaplanet');
    assert.equal(grown.code, 0, grown.err);
    assert.deepEqual(grown.hits.map((h) => [h.file, h.line, h.field]), [[pi.path, lines.length + 1, 'prompt']]);
    rmSync(pi.path);
    const gone = await search('quokkaplanet');
    assert.equal(gone.code, 1);
    assert.ok(!(await search('missing.txt')).hits.some((h) => h.file === pi.path));
  });

  it('goes on past a damaged file and a damaged line', async () => {
    const project = join(home, '.claude', 'projects', '-home-user-damaged');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, '0a0a0a0a-1111-4222-8333-444444444444.jsonl'), '\u0000\u0001{{{ not json at all wombatword\n\xff\xfe');
    const codex = files.find((f) => f.tool === 'codex' && /rollout-.*\.jsonl$/.test(f.path) && readFileSync(f.path, 'utf8').includes('then try to read missing.txt'))!;
    appendFileSync(codex.path, '{"broken": \n');
    const r = await search('"then try to read missing.txt" field:prompt');
    assert.equal(r.code, 0, r.err);
    assert.ok(r.hits.some((h) => h.file === codex.path));
    assert.ok(new Set(r.hits.map((h) => h.agent)).size >= 5);
  });
});
