import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { traceToMarkdown } from '../../src/report/markdown/markdownTranscript';
import { standaloneBlobs } from '../../src/report/standaloneBlobs';
import { WRITER_CORPUS } from '../helpers/corpus';

/** The Vercel AI SDK's spans (scripts/corpus/ai-sdk.mjs): GenAI-convention and legacy `ai.*`, generateText and streamText. */
const DIR = join(WRITER_CORPUS, 'ai-sdk-7.0.185');
const FILES = ['generate-text.otlp.json', 'generate-text-legacy.otlp.json', 'stream-text.otlp.jsonl', 'stream-text-legacy.otlp.jsonl'];

const count = (text: string, s: string) => text.split(s).length - 1;

describe('export --markdown of the Vercel AI SDK spans (issue 42)', () => {
  for (const name of FILES) {
    it(`${name}: system, prompt, reply, tool call, its result and the answer, in order, each once`, async () => {
      const text = await traceToMarkdown(await loadTrace(join(DIR, name)), { blobs: standaloneBlobs(), maxChars: 0 });
      const order = [
        'You are a careful assistant. Use the shell tool to run commands.',
        'Run echo hello in the shell and tell me what it printed.',
        'I will run the command.',
        '**Tool call** `shell`',
        '```sh\necho hello\n```',
        '**Tool result**',
        '```text\nhello\n```',
        'The command `echo hello` printed: hello',
      ];
      const at = order.map((s) => text.indexOf(s));
      assert.ok(at.every((k) => k >= 0), `all there: ${JSON.stringify(order.filter((_, k) => at[k] < 0))}`);
      assert.deepEqual([...at].sort((a, b) => a - b), at, 'in conversation order');
      for (const s of order) assert.equal(count(text, s), 1, `once: ${s}`);
      assert.doesNotMatch(text, /"hello\\n"/, 'the result as the tool returned it, not its JSON text');
      assert.match(text, /· tokens 323 in, 34 out · 1 tool calls/, 'the run counted once');
    });
  }
});
