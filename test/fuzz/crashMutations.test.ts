import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runJob } from './fuzzJob';
import { BLOCK, splitLf, zeroBlock } from './mutators';

// The regression half of the crash mutations (the seeded fuzz draws them at random): every 4 KiB block of three
// real traces zeroed in turn, and a cut at every byte of a line, each through every command against the oracle.
const REAL = [
  'samples/lumen/.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl',
  'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl',
  'samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl',
];

/** How many lines of `bytes` (with their newline) lie wholly outside the byte range [from, to). */
function untouchedLines(bytes: Buffer, from: number, to: number): number {
  let n = 0;
  let start = 0;
  for (const line of splitLf(bytes)) {
    const end = start + line.length + 1;
    if (end <= from || start >= to) n++;
    start = end;
  }
  return n;
}

describe('fuzz regression: what a crash does to a real trace', () => {
  let dir = '';
  before(() => (dir = mkdtempSync(join(tmpdir(), 'crash-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const problems = (r: Awaited<ReturnType<typeof runJob>>) => [...r.crashes, ...r.missed, ...r.falseMalformed, ...r.refused];

  for (const src of REAL) {
    it(`${src.split('/')[1]}: any 4 KiB block zeroed: no refusal, every line outside it read, each damaged line flagged`, async function () {
      this.timeout(120_000);
      const bytes = readFileSync(src);
      for (let at = 0; at < bytes.length; at += BLOCK) {
        const damaged = zeroBlock(bytes, at);
        const r = await runJob(join(dir, src.split('/').slice(-3).join('_')), damaged, null);
        assert.deepEqual(problems(r), [], `block at ${at}`);
        assert.equal(r.refusedNow, false);
        assert.equal(r.validLines, untouchedLines(bytes, at, at + BLOCK), `block at ${at}: the lines outside the block stay valid`);
      }
    });
  }

  it('lumen: a cut at every byte of a line is never refused and always reported at its line', async function () {
    this.timeout(300_000);
    const lines = splitLf(readFileSync(REAL[0]));
    const before = Buffer.concat(lines.slice(0, 2).flatMap((l) => [l, Buffer.from('\n')]));
    const line = lines[2];
    const trace = join(dir, 'cut', '.lumen', 'trace');
    mkdirSync(trace, { recursive: true });
    for (let cut = 0; cut <= line.length; cut++) {
      const r = await runJob(join(trace, '58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl'), Buffer.concat([before, line.subarray(0, cut)]), null);
      assert.deepEqual(problems(r), [], `cut at byte ${cut} of line 3`);
    }
  });

  // Hostile names (issue 41): every model of a real session named like a member of Object.prototype.
  for (const name of ['constructor', '__proto__', 'toString']) {
    it(`claude-code: every model named ${name}: no crash in any command`, async function () {
      this.timeout(120_000);
      const text = readFileSync(REAL[2], 'utf8').replace(/"model":"[^"]*"/g, `"model":${JSON.stringify(name)}`);
      const r = await runJob(join(dir, `model-${name}.jsonl`), Buffer.from(text), null);
      assert.deepEqual(problems(r), []);
    });
  }
});
