// Issue 38, Qwen Code leftovers, on the real corpus (test/corpus/qwen-code-*): a stream whose init was cut off,
// a response's text and calls as one model step, telemetry folded into the rows it describes.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import type { TraceModel } from '../../../../src/core/traceModel';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const ALL = writerFiles('qwen-code', (p) => p.endsWith('.jsonl'));
const STREAMS = ALL.filter((f) => /stream-json(-\d)?\.jsonl$/.test(f));
const CHATS = ALL.filter((f) => basename(dirname(f)) === 'chats');
const SUBAGENTS = ALL.filter((f) => basename(dirname(dirname(f))) === 'subagents');
const name = (f: string) => f.slice(f.search(/qwen-code-\d/));
const indices = (m: TraceModel) => [...Array(m.events.size).keys()];

describe('qwen-code leftovers (issue 38)', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'qwen-leftovers-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const f of STREAMS) {
    it(`${name(f)} without its system/init line (a piped tail) is still qwen-code stream-json, with the same usage`, async () => {
      const lines = readFileSync(f, 'utf8').split('\n');
      assert.equal(JSON.parse(lines[0]).subtype, 'init');
      const p = join(dir, `tail-${basename(dirname(f))}-${basename(f)}`);
      writeFileSync(p, lines.slice(1).join('\n'));
      const cut = await loadTrace(p);
      assert.equal(cut.format, 'qwen-code', cut.detection.reason);
      assert.equal(cut.detection.dialect, 'stream-json');
      const whole = summarize(await loadTrace(f)).usage.total;
      const part = summarize(cut).usage.total;
      assert.deepEqual([part.inputTokens, part.outputTokens, part.cacheReadTokens], [whole.inputTokens, whole.outputTokens, whole.cacheReadTokens]);
    });
  }
});
