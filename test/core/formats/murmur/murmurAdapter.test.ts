import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { murmurAdapter } from '../../../../src/core/formats/murmur/adapter';
import { murmurLabelOf, murmurStatus } from '../../../../src/core/formats/murmur/labels';
import { MURMUR_EVENT_TYPES } from '../../../../src/core/formats/murmur/catalog';
import { murmurSchemaTypes } from '../../../../src/core/formats/murmur/schemas';
import { cleanup, CORPUS_SESSION, CORPUS_TRACE, edit, ID, META_TRACE, parentLines, readLines, run, writeTrace } from './murmurTestKit';
import { CORPUS_ROOT } from '../../../helpers/corpus';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** Test vectors of murmur.md §5: exact bytes and their SHA-256. */
const VECTORS: [string, string][] = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['Be terse.', '28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f'],
  ['[{"name":"bash"}]', '143f541e445d0e75c221905b6a8c72a44775a5aba0db481a8c192c11bb71fb44'],
  ['{"content":"list the files","role":"user"}', 'a541255ba83f1a60aca6694511e5a9d9711c28557163223a615ebe4ca54863ed'],
  ['{"stop_reason":"tool_use"}', 'd9c1372f6d3b9bfd36f726afff707479789d54a65c057222a77b435b79a5ba7c'],
  ['{"content":[{"id":"toolu_01","input":{"command":"ls"},"name":"bash","type":"tool_use"}],"role":"assistant"}', '70c9f98d633d3f3f4e55f999901e218d7e1ae2ebc0af9b01cd8aeb38b45ffa6a'],
  ['{"content":[{"content":"README.md\\nsrc\\n","tool_use_id":"toolu_01","type":"tool_result"}],"role":"user"}', '6a82b0b5e58b3fd8cb37fec0304813bfd8d048390705e50b1dd39efce75987e6'],
  ['{"stop_reason":"end_turn"}', '19374ad7febf105acb1c66d185a4378b3eaf0de9d141219481855822330d46e4'],
];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** The first parsed values of a file, as the loader samples them (JSONL lines, or one JSON document). */
function sampleValues(file: string): unknown[] {
  const text = readFileSync(file, 'utf8');
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.slice(0, 20) : [v];
  } catch {
    return text.split('\n').filter((l) => l.trim()).slice(0, 20).flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
  }
}

describe('murmur adapter', () => {
  after(cleanup);

  describe('detection', () => {
    it('claims the corpus trace and no other corpus file', () => {
      const files = walk(CORPUS_ROOT).filter((f) => !f.includes('/blobs/') && !f.endsWith('.md'));
      assert.ok(files.length > 20, 'the whole corpus is scanned');
      const claimed = files.filter((f) => murmurAdapter.sniff({ values: sampleValues(f), fileName: basename(f), path: f, document: false }).confidence >= 0.5);
      assert.deepEqual(claimed, [CORPUS_TRACE]);
    });

    it('detects the corpus trace and our fixture with high confidence through loadTrace', async () => {
      for (const f of [CORPUS_TRACE, META_TRACE]) {
        const m = await loadTrace(f);
        assert.equal(m.format, 'murmur');
        assert.ok(m.detection.confidence >= 0.95, `${f}: ${m.detection.confidence}`);
      }
    });

    it('rejects AgentLedger Rust records (16-hex evt ids, payload_hash, no parent_id)', () => {
      const rust = { event_id: 'evt_0000000000000004', run_id: 'run_0000000000000001', session_id: 'sess_0000000000000002', step_id: null, seq: 1, event_type: 'run_created', timestamp: 1795965375.0372133, payload_hash: 'ffab2995c2703059', payload_ref: 'x', payload: {} };
      assert.equal(murmurAdapter.sniff({ values: [rust, rust], fileName: 'trace.jsonl', path: 'trace.jsonl', document: false }).confidence, 0);
      // Even a 32-hex id does not make a payload_hash record murmur.
      const disguised = { ...rust, event_id: ID.tool, parent_id: null, timestamp: 1795965375037 };
      assert.equal(murmurAdapter.sniff({ values: [disguised], fileName: 'x.jsonl', path: 'x.jsonl', document: false }).confidence, 0);
    });

    it('accepts upstream-test session ids with less confidence, and lets the file name add at most 0.05', () => {
      const line = JSON.parse(readLines(CORPUS_TRACE)[0]) as Record<string, unknown>;
      const test = { ...line, session_id: 'test-session-id' };
      const weak = murmurAdapter.sniff({ values: [test], fileName: 'x.jsonl', path: 'x.jsonl', document: false }).confidence;
      assert.ok(weak >= 0.5 && weak < 0.9, String(weak));
      const values = readLines(CORPUS_TRACE).map((l) => JSON.parse(l));
      const named = murmurAdapter.sniff({ values, fileName: 'trace.jsonl', path: 'a/trace.jsonl', document: false }).confidence;
      const unnamed = murmurAdapter.sniff({ values, fileName: 'other.jsonl', path: 'a/other.jsonl', document: false }).confidence;
      assert.ok(unnamed >= 0.95 && named - unnamed <= 0.05 && named >= unnamed);
    });

    it('detects a trace whose first line is torn', async () => {
      const lines = readLines(CORPUS_TRACE);
      const m = await loadTrace(writeTrace([lines[0].slice(0, 90), ...lines.slice(1)]));
      assert.equal(m.format, 'murmur');
      assert.equal(m.events.size, 6);
    });
  });

  describe('the corpus trace', () => {
    it('has 7 events with the documented parents', async () => {
      const m = await loadTrace(CORPUS_TRACE);
      assert.equal(m.events.size, 7);
      assert.deepEqual(parentLines(m), [null, 1, 2, 3, 2, 2, 1]);
      assert.deepEqual([...m.tree.roots], [0]);
      assert.deepEqual(m.diagnostics, []);
      const kinds = Array.from({ length: 7 }, (_, i) => m.events.kindOf(i));
      assert.deepEqual(kinds, ['session_start', 'task_start', 'inference', 'tool_call', 'inference', 'task_end', 'session_end']);
      assert.deepEqual(Array.from({ length: 7 }, (_, i) => m.events.id(i)), Object.values(ID));
    });

    it('labels, categories, tokens, model, tool, time and duration per event', async () => {
      const m = await loadTrace(CORPUS_TRACE);
      const e = (i: number) => m.events.get(i);
      assert.equal(e(2).label, 'inference turn 0 claude-sonnet-4-5 tool_call bash 812→64 tokens');
      assert.equal(e(3).label, 'bash: ls → ok, 9 ms');
      assert.equal(e(6).label, 'session_end ok 2 turns 1.7k→76 tokens 1 tool call 2.5 s');
      assert.deepEqual([e(2).category, e(3).category, e(1).category, e(0).category], ['inference', 'tool', 'task', 'session']);
      assert.deepEqual([e(2).tokensIn, e(2).tokensOut, e(4).tokensIn, e(4).tokensOut], [812, 64, 871, 12]);
      assert.equal(e(6).tokensIn, null, 'totals lines carry no tokens of their own, so nothing is counted twice');
      assert.deepEqual([e(2).model, e(3).tool, e(3).durationMs, e(3).time], ['claude-sonnet-4-5', 'bash', 9, 1767225601215]);
      assert.ok(Array.from({ length: 7 }, (_, i) => e(i)).every((x) => x.status === 'ok' && x.group === 'ses_39263059f28c105d1fb17c2390c192cf'));
    });

    it('names every blob reference with its exact field, and they are the 7 blobs on disk', async () => {
      const m = await loadTrace(CORPUS_TRACE);
      assert.deepEqual(m.events.get(0).hashRefs.map((h) => h.field), ['system_prompt_sha256']);
      assert.deepEqual(m.events.get(4).hashRefs.map((h) => `${h.field}=${h.digest.slice(0, 8)}:${h.algorithm}`), [
        'system_sha=28c7339e:sha256', 'tools_sha=143f541e:sha256', 'response_sha=19374ad7:sha256',
        'message_shas[0]=a541255b:sha256', 'message_shas[1]=70c9f98d:sha256', 'message_shas[2]=6a82b0b5:sha256',
      ]);
      assert.deepEqual(m.events.get(3).hashRefs, [], 'the tool_call holds no blob reference');
      const referenced = new Set(Array.from({ length: 7 }, (_, i) => m.events.get(i).hashRefs.map((h) => h.digest)).flat());
      const onDisk = readdirSync(join(CORPUS_SESSION, 'blobs')).sort();
      assert.deepEqual([...referenced].sort(), onDisk);
      for (const name of onDisk) assert.equal(sha256(readFileSync(join(CORPUS_SESSION, 'blobs', name))), name);
    });

    it('lists the ids it mentions (§2.9) and the format totals', async () => {
      const m = await loadTrace(CORPUS_TRACE);
      assert.deepEqual(m.events.get(3).mentions, [{ field: 'task_id', id: 'tsk_1' }, { field: 'tool_call_id', id: 'toolu_01' }]);
      assert.deepEqual(m.events.get(4).mentions.map((x) => x.field), ['task_id', 'message_ids[0]', 'message_ids[1]', 'message_ids[2]']);
      assert.deepEqual(m.formatTotals, { inputTokens: 1683, outputTokens: 76, toolCalls: 1, turns: 2, shellCalls: 0 });
    });
  });

  it('passes the test vectors of §5, which are the corpus blob bodies', () => {
    for (const [bytes, digest] of VECTORS) {
      assert.equal(sha256(Buffer.from(bytes, 'utf8')), digest);
      if (bytes !== '') assert.equal(readFileSync(join(CORPUS_SESSION, 'blobs', digest), 'utf8'), bytes);
    }
  });

  it('knows the 61 event types, each with a schema', () => {
    assert.equal(Object.keys(MURMUR_EVENT_TYPES).length, 61);
    assert.deepEqual(murmurSchemaTypes().sort(), Object.keys(MURMUR_EVENT_TYPES).sort());
    const byWriter = (w: string) => Object.values(MURMUR_EVENT_TYPES).filter((t) => t.writer === w).length;
    assert.deepEqual([byWriter('trace'), byWriter('resource'), byWriter('plan'), byWriter('prior')], [40, 16, 4, 1]);
  });

  it('builds the tree of the meta fixture from parent_id, across all writers', async () => {
    const m = await loadTrace(META_TRACE);
    assert.equal(m.events.size, 30);
    assert.deepEqual(parentLines(m), [null, 1, 1, 3, 3, 5, 5, 5, 5, 5, 3, 3, 3, 13, 1, 15, 15, 15, 1, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 1]);
    assert.equal(m.events.get(5).label, 'inference hook:gatekeeper turn 0 claude-test end_turn 40→5 tokens');
    assert.equal(m.events.get(11).status, 'error', 'a failed inference');
    assert.equal(m.events.get(26).status, 'warning', 'task_rejected');
    assert.deepEqual(m.events.get(29).hashRefs, [], 'resource_read.sha256 is not a blob reference');
    assert.deepEqual(m.events.get(23).mentions, [{ field: 'task_id', id: 'tsk_1' }, { field: 'change_id', id: m.events.id(22)! }]);
    assert.deepEqual(m.formatTotals, { inputTokens: 1150, outputTokens: 80, toolCalls: 1, turns: 4, shellCalls: 2 });
  });

  it('keeps unknown event types and non-object lines as events', async () => {
    const lines = readLines(CORPUS_TRACE);
    const file = writeTrace([...lines.slice(0, 4), edit(lines[3], (o) => { o.event_type = 'tool_call_v9'; o.event_id = 'evt_019b76daacc0730a965eda32dae44551'; }), '[1,2]', ...lines.slice(4)]);
    const m = await loadTrace(file);
    assert.equal(m.events.size, 9);
    assert.deepEqual([m.events.kindOf(4), m.events.labelOf(4), m.events.categoryOf(4)], ['tool_call_v9', 'tool_call_v9 ok 9 ms', 'other']);
    assert.deepEqual([m.events.kindOf(5), m.events.statusOf(5)], ['not-an-object', 'error']);
    assert.deepEqual(parentLines(m), [null, 1, 2, 3, 3, null, 2, 2, 1]);
  });

  it('loads the events around a torn line in the middle with their parents', async () => {
    const lines = readLines(CORPUS_TRACE);
    const shellLost = JSON.stringify({ event_type: 'shell_lost', event_id: 'evt_019b76dac0007000800000000000000a', parent_id: ID.session, session_id: 'ses_39263059f28c105d1fb17c2390c192cf', timestamp: 1767225700000, work_id: 'wrk_0a1b2c3d4e5f6a7b', binary: 'sh', command: 'sleep 100', detached_at_ms: 1767225601300, reconciled_by_session: 'ses_0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e', reconciled_task_id: 'tsk_9' });
    const { model, result } = await run(writeTrace([...lines.slice(0, 3), lines[3].slice(0, 100), shellLost]), 'verify');
    assert.equal(model.events.size, 4);
    assert.deepEqual(Array.from({ length: 4 }, (_, i) => model.events.lineOf(i)), [1, 2, 3, 5]);
    assert.deepEqual(parentLines(model), [null, 1, 2, 1]);
    assert.deepEqual(model.malformed.map((x) => x.line), [4]);
    assert.deepEqual(result.findings.filter((f) => !f.rule.startsWith('blob/')).map((f) => `${f.rule} ${f.severity} ${f.line}`), ['murmur/line-json warning 4']);
    assert.equal(result.ok, true);
  });
});

describe('murmur labels and statuses', () => {
  it('read the session\'s model only where the line names none, and equal those of a copy of the line', () => {
    const start = { event_type: 'session_start', capsule_name: 'cap', capsule_version: '1' };
    const inference = { event_type: 'inference', turn: 2, input_tokens: 10, output_tokens: 5 };
    const named = { ...inference, model: 'named-model' };
    const step = { event_type: 'plan_step_start', step_id: 's1', kind: 'edit' };
    for (const [type, line] of [['session_start', start], ['inference', inference], ['inference', named], ['plan_step_start', step]] as const) {
      for (const model of ['model-a', 'model-b', null, 'model-a']) {
        assert.equal(murmurLabelOf(type, line, model), murmurLabelOf(type, { ...line }, model), `${type} ${model}`);
        assert.equal(murmurStatus(type, line), 'ok');
      }
    }
    assert.notEqual(murmurLabelOf('session_start', start, 'model-a'), murmurLabelOf('session_start', start, 'model-b'));
    assert.notEqual(murmurLabelOf('inference', inference, 'model-a'), murmurLabelOf('inference', inference, 'model-b'));
    assert.equal(murmurLabelOf('inference', named, 'model-a'), murmurLabelOf('inference', named, 'model-b'));
    assert.equal(murmurStatus('inference', { ...inference, error_code: 'overloaded' }), 'error');
    assert.equal(murmurStatus('task_failed', {}), 'error');
    assert.equal(murmurStatus('brand_new_type', { outcome: 'failed' }), 'error');
  });
});
