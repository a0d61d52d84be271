import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { loadTrace } from '../../src/core/loadTrace';
import { buildDetail } from '../../src/viewer/eventDetail';
import { traceToMarkdown } from '../../src/report/markdown/markdownTranscript';
import { writerFiles } from '../helpers/writerCorpus';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The answers of a Gemini CLI stream-json file, worked out from its raw lines: each run of assistant `delta` chunks joined. */
function answersByHand(path: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let open: { line: number; text: string } | null = null;
  readFileSync(path, 'utf8').split('\n').forEach((l, k) => {
    if (l.trim() === '') return;
    const v: Obj = JSON.parse(l);
    if (v.type === 'message' && v.role === 'assistant' && v.delta === true) {
      if (open) open.text += v.content;
      else out.push((open = { line: k + 1, text: v.content }));
    } else open = null;
  });
  return out;
}

const streams = writerFiles('gemini-cli').filter((p) => /stream-json[^/\\]*\.jsonl$/.test(p));

describe('a Gemini CLI answer streamed in chunks reads whole (detail, transcript, Markdown)', () => {
  it('finds the real-writer streams, with answers of several chunks', () => {
    assert.ok(streams.length >= 4, streams.join('\n'));
    assert.ok(streams.some((p) => readFileSync(p, 'utf8').split('\n').filter((l) => l.includes('"delta":true')).length > answersByHand(p).length), 'some answer has more than one chunk');
  });

  for (const path of streams) {
    it(`${path.slice(path.indexOf('test'))}: each answer's event shows every chunk's text, once`, async () => {
      const model = await loadTrace(path);
      const want = answersByHand(path);
      for (const a of want) {
        const node = [...Array(model.events.size).keys()].find((i) => model.events.lineOf(i) === a.line)!;
        const d = await buildDetail(model, node, []);
        const text = d.messages.flatMap((m) => m.parts.map((p) => ('text' in p ? p.text : ''))).join('');
        assert.equal(text, a.text, `line ${a.line}`);
      }
      // Markdown escapes its own characters (a backtick in prose is \`): compared with the escapes taken out.
      const md = (await traceToMarkdown(model)).replace(/\\([\\`*_{}\[\]()#+\-.!|<>~])/g, '$1');
      for (const a of want) assert.equal(md.split(a.text).length - 1, 1, `the Markdown holds "${a.text}" once`);
    });
  }
});
