import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { main } from '../../src/cli/main';
import { loadTrace } from '../../src/core/loadTrace';
import { markdownExport, traceToMarkdown } from '../../src/report/markdown/markdownTranscript';
import { markdownAsWritten, WORD_JOINER } from '../../src/report/markdown/markdownText';
import { standaloneBlobs } from '../../src/report/standaloneBlobs';
import { filesUnder } from '../helpers/writerCorpus';
import { WRITER_CORPUS } from '../helpers/corpus';
import { tempDir } from '../helpers/tmp';

// markdown-it renders as GitHub does for what matters here: CommonMark with raw HTML allowed.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const MarkdownIt = require('markdown-it');
const md = new MarkdownIt({ html: true, linkify: true });

const MURMUR = 'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl';
const LUMEN = 'samples/lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl';
const OTLP_MESSAGES = join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces-messages.jsonl');

/** Every session file of the real-writer corpus (what the loader reads as a format of its own). */
async function corpusSessions(): Promise<string[]> {
  const out: string[] = [];
  for (const f of filesUnder(WRITER_CORPUS, (p) => /\.jsonl?$/.test(p))) if ((await loadTrace(f)).detection.format !== 'generic') out.push(f);
  return out;
}

/** Runs the CLI in this process and captures what it writes to stdout and stderr. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => ((err += chunk), true)) as typeof process.stderr.write;
  try {
    return { code: await main(argv), out, err };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
}

/** Each entry of a role that says something (text, not a tool call or result it carries): where it starts and its line. */
const saidBy = (text: string, role: string) =>
  [...text.matchAll(new RegExp(`^\\*\\*${role}\\*\\* · \`[^\`]+\` line (\\d+)\\n\\n(?!\\*\\*Tool (call|result)\\*\\*)`, 'gm'))].map((m) => ({ at: m.index!, line: Number(m[1]) }));

describe('export --markdown that fits (issue 42)', () => {
  let sessions: string[] = [];
  before(async () => {
    sessions = await corpusSessions();
  });

  it('every corpus session: the prompt before its reply, each tool call and each tool result once by id', async () => {
    assert.ok(sessions.length >= 60, `${sessions.length} sessions`);
    let ordered = 0;
    for (const f of sessions) {
      const text = await traceToMarkdown(await loadTrace(f), { blobs: standaloneBlobs(), maxChars: 0 });
      const results = [...text.matchAll(/^\*\*Tool result\*\* · `([^`]+)`/gm)].map((m) => m[1]);
      assert.deepEqual(results.filter((id, k) => results.indexOf(id) !== k), [], `${f}: a tool result twice`);
      const calls = [...text.matchAll(/^\*\*Tool call\*\* `[^`]+` · `([^`]+)`$/gm)].map((m) => m[1]);
      assert.deepEqual(calls.filter((id, k) => calls.indexOf(id) !== k), [], `${f}: a tool call twice`);
      // The first prompt, and the first reply from its line on (a model call's event holds its request and its reply).
      const [prompt] = saidBy(text, 'user');
      const reply = prompt && saidBy(text, 'assistant').find((r) => r.line >= prompt.line);
      if (!prompt || !reply) continue;
      assert.ok(prompt.at < reply.at, `${f}: the reply on line ${reply.line} comes before the prompt on line ${prompt.line}`);
      ordered++;
    }
    assert.ok(ordered >= 35, `${ordered} sessions with a prompt and a reply`);
  });

  it('murmur --line 21: the request (system prompt, the task, every step) before the reply, tool schemas never', async () => {
    const r = await run(['export', MURMUR, '--markdown', '--line', '21']);
    assert.equal(r.code, 0, r.err);
    const at = (needle: string) => {
      const k = r.out.indexOf(needle);
      assert.ok(k >= 0, `holds ${needle}`);
      return k;
    };
    const system = at('You are test-fixer');
    const task = at('CI is red: `npm test` fails');
    const fixed = at('Fixed. `formatGreeting`');
    const thanks = at('Thanks. Write a one-line CHANGELOG entry');
    const reply = at('- Escape HTML in `formatGreeting`');
    assert.ok(system < task && task < fixed && fixed < thanks && thanks < reply, 'in conversation order');
    // The `tools` blob holds the tools' schemas: setup, not three "description" messages.
    assert.doesNotMatch(r.out, /\*\*description\*\*|Read a UTF-8 text file inside the workdir/);
    // Each of the seven tool calls (one denied) and their results once.
    assert.equal((r.out.match(/^\*\*Tool call\*\* /gm) ?? []).length, 7);
    assert.equal((r.out.match(/^\*\*Tool result\*\* /gm) ?? []).length, 7);
  });

  it('the lumen sample shows its 7 tool calls, the failed read marked', async () => {
    const text = await traceToMarkdown(await loadTrace(LUMEN), { blobs: standaloneBlobs() });
    const calls = [...text.matchAll(/^\*\*Tool call\*\* `([^`]+)`( · \*\*error\*\*)?/gm)];
    assert.deepEqual(calls.map((m) => m[1]), ['fs.read', 'fs.read', 'fs.read', 'llm.chat', 'human.approve', 'fs.write', 'shell.exec']);
    assert.equal(calls.filter((m) => m[2]).length, 1, 'one failed');
    assert.match(text, /file not found: src\/greeting\.ts/);
  });

  it('an OpenTelemetry GenAI file shows the conversation its spans carry: system, prompt, calls, results, reply', async () => {
    const text = await traceToMarkdown(await loadTrace(OTLP_MESSAGES), { blobs: standaloneBlobs() });
    const order = ['You are a coding agent.', 'How many TypeScript files are in src/', 'find src -name', '42', 'npm run build', "Cannot find name 'foo'", 'src/ holds 42 TypeScript files'];
    const at = order.map((s) => text.indexOf(s));
    assert.ok(at.every((k) => k >= 0), `all there: ${at}`);
    assert.deepEqual([...at].sort((a, b) => a - b), at, 'in order');
    // The history every chat span re-sends is written once.
    assert.equal(text.split('How many TypeScript files are in src/').length - 1, 1);
  });

  it('over the limit: cut at an entry boundary, at most the limit, with a note of what was cut and how to get the rest', async () => {
    const files = await Promise.all(sessions.map(async (f) => ({ f, n: (await traceToMarkdown(await loadTrace(f), { blobs: standaloneBlobs(), maxChars: 0 })).length })));
    const big = files.sort((a, b) => b.n - a.n)[0];
    const limit = Math.floor(big.n / 3);
    const { text, cut } = await markdownExport(await loadTrace(big.f), { blobs: standaloneBlobs(), maxChars: limit });
    assert.ok(text.length <= limit, `${text.length} > ${limit}`);
    assert.ok(cut && cut.leftOut > 0 && cut.leftOut < cut.blocks, JSON.stringify(cut));
    assert.match(text, /\n\n---\n\n\*Cut to fit [\d,]+ characters[^:]*: the last \d+ of the transcript's \d+ blocks, from line \d+ on, are left out\. .*`--line N`.*`--max-chars 0`.*`-o FILE\.md`/);
    // What was written is the start of the whole export, word for word.
    const whole = await traceToMarkdown(await loadTrace(big.f), { blobs: standaloneBlobs(), maxChars: 0 });
    assert.ok(whole.startsWith(text.slice(0, text.lastIndexOf('\n\n---\n\n*Cut to fit'))));
    // Nothing is cut inside an entry: every fence and <details> that opens closes.
    assert.equal((text.match(/<details>/g) ?? []).length, (text.match(/<\/details>/g) ?? []).length);
    assert.equal((text.match(/^```/gm) ?? []).length % 2, 0);
    // Under the limit: no note; the default limit is what a GitHub comment holds.
    assert.doesNotMatch(await traceToMarkdown(await loadTrace(MURMUR), { blobs: standaloneBlobs() }), /Cut to fit/);
    const cli = await run(['export', big.f, '--markdown', '--max-chars', String(Math.max(2000, limit))]);
    assert.equal(cli.code, 0);
    assert.match(cli.err, /the Markdown was cut to \d+ characters: the last \d+ of \d+ transcript blocks \(from line \d+\) are left out/);
  });

  it('--max-chars takes a whole number (0: no limit), too small a limit is a usage error, not a crash', async () => {
    for (const bad of ['10', '-5', 'lots', '1e9']) {
      const r = await run(['export', MURMUR, '--markdown', '--max-chars', bad]);
      assert.equal(r.code, 2, bad);
      assert.match(r.err, /--max-chars/);
    }
    const all = await run(['export', MURMUR, '--markdown', '--max-chars', '0', '-o', join(tempDir(), 'all.md')]);
    assert.equal(all.code, 0, all.err);
    assert.equal((await run(['export', MURMUR, '--otlp', '--max-chars', '5000'])).code, 2);
    assert.equal((await run(['export', MURMUR, '--otlp', '--summary'])).code, 2);
  });

  it('--summary: turns, tool calls, failures, tokens, cost, the first prompt and the last reply', async () => {
    const r = await run(['export', MURMUR, '--markdown', '--summary']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\| Turns \| 7 \|/);
    assert.match(r.out, /\| Tool calls \| 6 \|/);
    assert.match(r.out, /\| Failed tool calls \| 3 \|/);
    assert.match(r.out, /\| Input tokens \| 15691 \|/);
    assert.match(r.out, /\| Cost \(USD\) \| \d+\.\d{4} \|/);
    assert.match(r.out, /\*\*First prompt\*\* · line 3\n\nCI is red/);
    assert.match(r.out, /\*\*Last reply\*\* · line 21\n\n- Escape HTML in `formatGreeting`/);
    assert.ok(r.out.length < 3000, 'short');
  });

  describe('a prompt keeps its Markdown, and cannot break out', () => {
    const render = (text: string) => md.render(markdownAsWritten(text));

    it('inline Markdown renders as written: no \\( \\- \\< over-escaping', () => {
      const text = 'Fix **this** (now):\n\n- one `a < b`\n- two [docs](https://example.com/x)\n\n```ts\nconst x: Array<string> = [];\n```';
      const out = markdownAsWritten(text);
      assert.doesNotMatch(out, /\\[(\-<]/);
      const html = render(text);
      assert.match(html, /<strong>this<\/strong> \(now\)/);
      assert.match(html, /<li>one <code>a &lt; b<\/code><\/li>/);
      assert.match(html, /<a href="https:\/\/example.com\/x">docs<\/a>/);
      assert.match(html, /<pre><code class="language-ts">const x: Array&lt;\u2060string&gt; = \[\];/);
    });

    it('raw HTML, comments and images stay text; an open fence is closed; mentions do not ping', () => {
      const html = render('<b>bold</b> <script>alert(1)</script> <!-- c --> <img src=x onerror=alert(1)> ![t](https://e.x/t.png) @octocat');
      assert.doesNotMatch(html, /<(b|script|img|!--)[\s>]/);
      assert.match(html.replace(new RegExp(WORD_JOINER, 'g'), ''), /&lt;b&gt;bold&lt;\/b&gt; &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
      assert.ok(html.includes(`@${WORD_JOINER}octocat`));
      const open = markdownAsWritten('see:\n````sh\nrm -rf /\n');
      assert.ok(open.endsWith('\n````'), open);
      // What follows the prompt (the export's next entry) is not swallowed by its fence.
      assert.match(md.render(`${open}\n\n**assistant**`), /<strong>assistant<\/strong>/);
    });
  });
});
