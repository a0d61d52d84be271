import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { codexRules } from '../../../../src/core/formats/codex/rules';
import { loadTrace } from '../../../../src/core/loadTrace';
import { tempFile } from '../../../helpers/tmp';
import { editJson, findingsOf, fixture, mutateLines, runAll } from '../../../fixtures/other/harness';

const SYNTHETIC = fixture('rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl');
const TWO_TURNS = fixture('codex-two-turns.jsonl');
const only = (found: string[], prefix: string) => found.filter((f) => f.startsWith(prefix));

describe('codex rules', () => {
  it('declare the doc\'s rule ids with their severities and modes', () => {
    const byId = Object.fromEntries(codexRules.rules.map((r) => [r.id, `${r.mode}/${r.severity}`]));
    assert.deepEqual(byId, {
      'codex/line-json': 'verify/error', 'codex/line-shape': 'check/error', 'codex/type-known': 'check/info',
      'codex/session-meta-first': 'verify/warning', 'codex/file-name-id': 'verify/info', 'codex/call-pairing': 'check/warning',
      'codex/unanswered-call': 'check/info', 'codex/arguments-json': 'check/warning', 'codex/timestamp-order': 'check/info',
      'codex/payload-schema': 'check/warning', 'codex/ordinal-sequence': 'verify/warning',
      'codex/exec-thread-first': 'verify/warning', 'codex/exec-turn-unfinished': 'check/warning',
      'codex/exec-item-unfinished': 'check/info', 'codex/exec-event-shape': 'check/error',
    });
  });

  it('codex/call-pairing: an output whose call_id names no call (warning); the output still shows, under the turn', async () => {
    const file = mutateLines(SYNTHETIC, (l) => editJson(l, 6, (v) => (v.payload.call_id = 'call-unknown')));
    const f = (await runAll(file, 'check')).filter((x) => x.rule === 'codex/call-pairing');
    assert.deepEqual(f.map((x) => [x.line, x.severity]), [[7, 'warning']]);
    assert.match(f[0].message, /call-unknown/);
    const m = await loadTrace(file);
    assert.equal(m.events.lineOf(m.events.parent(6)), 2);
    assert.deepEqual(only(await findingsOf(file, 'check'), 'codex/unanswered-call'), ['codex/unanswered-call@6']);
  });

  it('codex/call-pairing: an output of the wrong kind, and a second output for one call', async () => {
    const wrongKind = mutateLines(SYNTHETIC, (l) => editJson(l, 8, (v) => (v.payload.call_id = 'call-structured-001')));
    assert.deepEqual(only(await findingsOf(wrongKind, 'check'), 'codex/call-pairing'), ['codex/call-pairing@9']);
    const twice = mutateLines(SYNTHETIC, (l) => [...l.slice(0, 7), l[6], ...l.slice(7)]);
    assert.deepEqual(only(await findingsOf(twice, 'check'), 'codex/call-pairing'), ['codex/call-pairing@8']);
  });

  it('codex/call-pairing: an output before its call (swapped lines)', async () => {
    const file = mutateLines(SYNTHETIC, (l) => [...l.slice(0, 5), l[6], l[5], ...l.slice(7)]);
    assert.deepEqual(only(await findingsOf(file, 'check'), 'codex/call-pairing'), ['codex/call-pairing@6']);
  });

  it('codex/session-meta-first: the header cut off, or a second header', async () => {
    const cut = mutateLines(SYNTHETIC, (l) => l.slice(1));
    const f = (await runAll(cut, 'verify')).filter((x) => x.rule === 'codex/session-meta-first');
    assert.deepEqual(f.map((x) => [x.line, x.severity]), [[1, 'warning']]);
    assert.equal((await loadTrace(cut)).format, 'codex', 'still detected without its header');
    const twice = mutateLines(SYNTHETIC, (l) => [...l, l[0]]);
    assert.deepEqual(only(await findingsOf(twice, 'verify'), 'codex/session-meta-first'), ['codex/session-meta-first@15']);
  });

  it('codex/file-name-id: a header whose id differs from the file name', async () => {
    const text = readFileSync(SYNTHETIC, 'utf8').replace('"id":"11111111-1111-4111-8111-111111111111"', '"id":"22222222-2222-4222-8222-222222222222"');
    const file = tempFile('rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl', text);
    assert.deepEqual(only(await findingsOf(file, 'verify'), 'codex/file-name-id'), ['codex/file-name-id@1']);
    assert.deepEqual(only(await findingsOf(SYNTHETIC, 'verify'), 'codex/file-name-id'), []);
  });

  it('codex/arguments-json: arguments that are not JSON text', async () => {
    const file = mutateLines(SYNTHETIC, (l) => editJson(l, 5, (v) => (v.payload.arguments = '{"cmd": "find')));
    assert.deepEqual(only(await findingsOf(file, 'check'), 'codex/arguments-json'), ['codex/arguments-json@6']);
  });

  it('codex/line-json and codex/line-shape: an array line, a legacy line without the wrapper', async () => {
    const file = mutateLines(SYNTHETIC, (l) => [...l.slice(0, 3), '["response_item"]', '{"type":"message","role":"user","content":[]}', ...l.slice(3)]);
    const v = await runAll(file, 'verify');
    assert.deepEqual(v.filter((x) => x.rule === 'codex/line-json').map((x) => [x.line, x.severity]), [[4, 'error']]);
    assert.deepEqual(only(await findingsOf(file, 'check'), 'codex/line-shape'), ['codex/line-shape@5']);
    assert.equal((await loadTrace(file)).events.size, 16, 'every line is still an event');
  });

  it('codex/timestamp-order: a line older than the one before it', async () => {
    const file = mutateLines(SYNTHETIC, (l) => editJson(l, 7, (v) => (v.timestamp = '2026-01-02T03:04:00.000Z')));
    assert.deepEqual(only(await findingsOf(file, 'check'), 'codex/timestamp-order'), ['codex/timestamp-order@8']);
  });

  it('codex/payload-schema: a session_meta without originator (claude-code-log malformed fixture), a function_call without call_id', async () => {
    const file = mutateLines(SYNTHETIC, (l) => editJson(editJson(l, 0, (v) => delete v.payload.originator), 9, (v) => delete v.payload.call_id));
    const f = (await runAll(file, 'check')).filter((x) => x.rule === 'codex/payload-schema');
    assert.deepEqual(f.map((x) => x.line), [1, 10]);
    assert.match(f[0].message, /payload\.originator/);
  });

  it('codex/unanswered-call: a deleted output (truncated tail)', async () => {
    const file = mutateLines(TWO_TURNS, (l) => l.slice(0, 7));
    assert.deepEqual(only(await findingsOf(file, 'check'), 'codex/unanswered-call'), ['codex/unanswered-call@6']);
  });
});
