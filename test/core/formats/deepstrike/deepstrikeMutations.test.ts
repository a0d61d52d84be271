import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { brief, checkFile, CORE_A, CORE_B, dsCorpus, dsEditable, SDK_PY, writeTemp } from './deepstrikeTestUtil';

type Edit = ReturnType<typeof dsEditable>;

/** Mutates a corpus session log (clean in both modes) and returns [verify, check] briefs. */
async function both(file: string, edit: (e: Edit) => void, base = SDK_PY): Promise<[string[], string[]]> {
  const e = dsEditable(base);
  edit(e);
  const p = e.write(file);
  return [brief(await checkFile(p, 'verify')), brief(await checkFile(p, 'check'))];
}

describe('deepstrike rules: mutations of a clean session log', () => {
  it('gap in seq', async () => {
    const [v, c] = await both('gap.jsonl', (e) => e.lines.forEach((l, i) => i >= 5 && (l.seq += 1)));
    assert.deepEqual(v, ['6 warning deepstrike/seq-dense']);
    assert.deepEqual(c, []);
  });

  it('swapped lines (llm_completed ↔ tool_requested)', async () => {
    const [v, c] = await both('swap.jsonl', (e) => ([e.lines[3], e.lines[4]] = [e.lines[4], e.lines[3]]));
    assert.deepEqual(v, ['4 warning deepstrike/seq-dense', '5 warning deepstrike/seq-dense']);
    assert.deepEqual(c, ['4 warning deepstrike/call-id-known']);
  });

  it('duplicated tool_completed line', async () => {
    const [v, c] = await both('dup.jsonl', (e) => e.lines.splice(6, 0, JSON.parse(JSON.stringify(e.lines[5]))));
    assert.deepEqual(v, ['7 warning deepstrike/seq-dense']);
    assert.deepEqual(c, ['7 warning deepstrike/duplicate-result']);
  });

  it('deleted line: tool_completed, then run_terminal', async () => {
    const [v, c] = await both('del.jsonl', (e) => e.lines.splice(5, 1));
    assert.deepEqual(v, ['6 warning deepstrike/seq-dense']);
    assert.deepEqual(c, ['8 info deepstrike/kernel-handled']);
    const [, c2] = await both('del-terminal.jsonl', (e) => e.lines.splice(21, 1));
    assert.deepEqual(c2, ['22 warning deepstrike/run-unterminated']);
  });

  it('truncated tail', async () => {
    const text = readFileSync(dsCorpus(SDK_PY), 'utf8');
    const p = writeTemp('trunc.jsonl', text.slice(0, text.length - 12));
    assert.deepEqual(brief(await checkFile(p, 'verify')), ['30 warning deepstrike/line-json']);
    assert.deepEqual(brief(await checkFile(p, 'check')), ['29 warning deepstrike/run-unterminated', '30 warning deepstrike/line-json']);
  });

  it('a result for a call never requested; an event after run_terminal', async () => {
    const [, c] = await both('unknown-call.jsonl', (e) => (e.ev(5).results[0].call_id = 'toolu_never'));
    assert.deepEqual(c, ['6 warning deepstrike/call-id-known', '9 info deepstrike/kernel-handled']);
    const [, c2] = await both('after-terminal.jsonl', (e) => e.lines.push({ seq: 30, event: { kind: 'entropy_alert', turn: 1, score: 0.9, threshold: 0.5 } }));
    assert.deepEqual(c2, ['31 warning deepstrike/event-outside-run']);
  });

  it('run fields, unknown kind, turn order, terminal reason', async () => {
    const [, c] = await both('fields.jsonl', (e) => {
      delete e.ev(0).goal;
      e.ev(6).kind = 'entropy_spike';
      e.ev(15).turn = 1;
      e.ev(21).reason = 'done';
    });
    assert.deepEqual(c, ['1 error deepstrike/run-fields', '7 warning deepstrike/kind-known', '16 warning deepstrike/turn-monotonic', '22 warning deepstrike/terminal-reason']);
  });

  it('a second run_started without run_terminal', async () => {
    const [, c] = await both('two-starts.jsonl', (e) => {
      e.lines.splice(21, 1);
      e.renumber();
    });
    assert.deepEqual(c, ['22 warning deepstrike/run-unterminated']);
    const f = await checkFile(dsEditable(SDK_PY).write('ok.jsonl'), 'check');
    assert.deepEqual(f, []);
  });

  it('permission resolved without request; resumed beyond the suspended calls', async () => {
    const [, c] = await both('perm.jsonl', (e) => e.lines.splice(10, 1));
    assert.deepEqual(c, ['11 warning deepstrike/permission-pairing']);
    const [, c2] = await both('resume.jsonl', (e) => (e.ev(8).approved = ['call_other']), CORE_B);
    assert.deepEqual(c2, ['9 warning deepstrike/resume-subset']);
  });

  it('rollback to a checkpoint never taken', async () => {
    const [, c] = await both('rollback.jsonl', (e) => (e.ev(28).checkpoint_history_len = 5));
    assert.deepEqual(c, ['29 warning deepstrike/rollback-checkpoint']);
  });

  it('compressed range, contiguity and summary target', async () => {
    const [, range] = await both('range.jsonl', (e) => (e.ev(20).archived_seq_range = [0, 25]));
    assert.deepEqual(range, ['21 error deepstrike/compressed-range']);
    const [, cont] = await both('contiguous.jsonl', (e) => {
      e.lines.splice(28, 0, { seq: 0, event: { kind: 'compressed', turn: 1, archived_seq_range: [0, 27] } });
      e.lines.splice(29, 0, { seq: 0, event: { kind: 'summary_upgraded', compressed_seq: 20, summary: 's' } });
      e.lines.splice(30, 0, { seq: 0, event: { kind: 'summary_upgraded', compressed_seq: 19, summary: 's' } });
      e.renumber();
    });
    assert.deepEqual(cont, ['29 warning deepstrike/compressed-contiguous', '31 error deepstrike/summary-target']);
  });

  it('llm shape, legacy blocks, durable content, provider replay, enum values', async () => {
    const [, c] = await both('shapes.jsonl', (e) => {
      e.ev(3).provider_replay.schema_version = 2;
      e.ev(5).results[0].content.blocks[0] = { type: 'image', source: { kind: 'base64', data: 'abc' } };
      e.ev(11).responder = 'robot';
      e.ev(18).results[0].blocks = [];
      delete e.ev(19).content;
    });
    assert.deepEqual(c, ['4 error deepstrike/provider-replay', '6 error deepstrike/durable-content', '12 warning deepstrike/enum-values',
      '19 error deepstrike/legacy-blocks', '20 error deepstrike/llm-shape']);
    const [, core] = await both('core-shapes.jsonl', (e) => {
      e.ev(4).results[0].durable_content.blocks[0].extra = 1;
      e.ev(2).provider_replay.protocol = '';
    }, CORE_A);
    assert.deepEqual(core, ['3 error deepstrike/provider-replay', '5 error deepstrike/durable-content']);
    const [, cancel] = await both('cancel.jsonl', (e) => (e.ev(15).reason = 'bored'), CORE_B);
    assert.deepEqual(cancel, ['16 warning deepstrike/enum-values']);
  });

  it('record keys and line json (verify)', async () => {
    const [v] = await both('keys.jsonl', (e) => {
      e.lines[2].ts = 1;
      e.lines[7].seq = '7';
    });
    assert.deepEqual(v, ['3 error deepstrike/record-keys', '8 error deepstrike/record-keys', '9 warning deepstrike/seq-dense']);
    const lines = readFileSync(dsCorpus(SDK_PY), 'utf8').split('\n');
    lines[4] = lines[4].slice(0, 30);
    const p = writeTemp('badjson.jsonl', lines.join('\n'));
    assert.deepEqual(brief(await checkFile(p, 'verify')), ['5 error deepstrike/line-json', '6 warning deepstrike/seq-dense']);
  });
});
