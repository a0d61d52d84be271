import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { runChecks } from '../../../../src/core/formatRules';
import { claudeCodeRules } from '../../../../src/core/formats/claude-code/rules';
import { loadTrace } from '../../../../src/core/loadTrace';
import { tempDir, tempFile } from '../../../helpers/tmp';
import { corpus, editJson, findingsOf, fixture, linkLines, mutateLines, parentLines, runAll } from '../../../fixtures/other/harness';

const SESSION = corpus('other/claude-code/sample_session.jsonl');
const SIDECHAIN = fixture('claude-sidechain.jsonl');

/** sample_session.jsonl with the parentUuid chain real files have: each message's parent is the message before it. */
function linked(lines: string[]): string[] {
  let prev: string | null = null;
  return lines.map((l) => {
    const v = JSON.parse(l);
    if (typeof v.uuid !== 'string') return l;
    v.parentUuid = prev;
    prev = v.uuid;
    return JSON.stringify(v);
  });
}

const linkedSession = (mutate: (lines: string[]) => string[] = (x) => x, name?: string) => mutateLines(SESSION, (lines) => mutate(linked(lines)), name);
const only = (found: string[], prefix: string) => found.filter((f) => f.startsWith(prefix));

describe('claude-code rules', () => {
  it('declare the doc\'s rule ids with their severities and modes', () => {
    const byId = Object.fromEntries(claudeCodeRules.rules.map((r) => [r.id, `${r.mode}/${r.severity}`]));
    assert.deepEqual(byId, {
      'claude/line-json': 'verify/error', 'claude/type-known': 'check/info', 'claude/uuid-unique': 'verify/warning',
      'claude/parent-exists': 'verify/warning', 'claude/parent-cycle': 'verify/error', 'claude/sidechain-root': 'check/warning',
      'claude/tool-result-pairing': 'check/warning', 'claude/unanswered-tool-use': 'check/info', 'claude/split-message': 'check/info',
      'claude/summary-leaf': 'verify/info', 'claude/timestamp-order': 'check/info', 'claude/message-schema': 'check/warning',
      'claude/parent-next-line': 'verify/info', 'claude/logical-parent': 'verify/info', 'claude/parent-tool-use': 'verify/warning',
      'claude/stream-result': 'check/warning', 'claude/subagent-link': 'verify/warning',
    });
  });

  it('a correctly linked session is a chain (shown as two turns) and fires nothing but the notes', async () => {
    const file = linkedSession();
    const m = await loadTrace(file);
    assert.deepEqual(linkLines(m), [null, null, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(parentLines(m), [null, null, 2, 3, 2, 5, null, 7]);
    assert.deepEqual(await findingsOf(file, 'verify'), ['claude/summary-leaf@1']);
    assert.deepEqual(await findingsOf(file, 'check'), []);
  });

  it('claude/parent-exists: a dangling parentUuid (warning), and a parent written later', async () => {
    const dangling = linkedSession((l) => editJson(l, 4, (v) => (v.parentUuid = 'gone')));
    const m = await loadTrace(dangling);
    assert.equal(linkLines(m)[4], null, 'no link');
    assert.equal(parentLines(m)[4], 2, 'still shown in its turn');
    assert.deepEqual(m.diagnostics.map((d) => `${d.rule}@${d.line}`), ['tree/dangling-parent@5'], 'the model reports the link as without the session shape');
    const f = await runAll(dangling, 'verify');
    assert.deepEqual(f.filter((x) => x.rule === 'claude/parent-exists').map((x) => [x.line, x.severity, x.eventId]), [[5, 'warning', 'msg-004']]);
    assert.equal(f.some((x) => x.rule === 'tree/dangling-parent'), false, 'the generic rule is superseded');
    const later = linkedSession((l) => editJson(l, 2, (v) => (v.parentUuid = 'msg-006')));
    assert.deepEqual(only(await findingsOf(later, 'verify'), 'claude/parent-exists'), ['claude/parent-exists@3']);
  });

  it('claude/parent-cycle: msg-001 → msg-003 → msg-002 → msg-001 is an error at the last line of the cycle', async () => {
    const file = linkedSession((l) => editJson(l, 1, (v) => (v.parentUuid = 'msg-003')));
    const result = await runChecks(await loadTrace(file), 'verify');
    assert.deepEqual(only(result.findings.map((x) => `${x.rule}@${x.line}`), 'claude/parent-cycle'), ['claude/parent-cycle@4']);
    assert.equal(result.ok, false);
    assert.equal(result.findings.some((x) => x.rule === 'tree/cycle'), false);
    const self = linkedSession((l) => editJson(l, 3, (v) => (v.parentUuid = 'msg-003')));
    assert.deepEqual(only(await findingsOf(self, 'verify'), 'claude/parent-cycle'), ['claude/parent-cycle@4']);
  });

  it('claude/uuid-unique: a duplicated line', async () => {
    const file = linkedSession((l) => [...l.slice(0, 4), l[3], ...l.slice(4)]);
    assert.deepEqual(only(await findingsOf(file, 'verify'), 'claude/uuid-unique'), ['claude/uuid-unique@5']);
  });

  it('claude/line-json: a JSON array line and an object without type', async () => {
    const file = linkedSession((l) => [...l.slice(0, 2), '["user","hi"]', '{"uuid":"x"}', ...l.slice(2)]);
    const f = await runAll(file, 'verify');
    assert.deepEqual(f.filter((x) => x.rule === 'claude/line-json').map((x) => [x.line, x.severity]), [[3, 'error'], [4, 'error']]);
  });

  it('claude/type-known: one info per unknown type; the bookkeeping types real writers write are known', async () => {
    const future = '{"type":"future-bookkeeping","messageId":"m1","sessionId":"s"}';
    const snap = '{"type":"file-history-snapshot","messageId":"m1","snapshot":{},"isSnapshotUpdate":false}';
    const file = linkedSession((l) => [future, snap, ...l, future, snap]);
    assert.deepEqual(only(await findingsOf(file, 'check'), 'claude/type-known'), ['claude/type-known@1']);
    assert.equal((await loadTrace(file)).format, 'claude-code');
  });

  it('claude/tool-result-pairing and claude/unanswered-tool-use: deleted and swapped lines', async () => {
    const noUse = linkedSession((l) => [...l.slice(0, 2), ...l.slice(3)]);
    assert.deepEqual(only(await findingsOf(noUse, 'check'), 'claude/tool-result-pairing'), ['claude/tool-result-pairing@3']);
    const noResult = linkedSession((l) => [...l.slice(0, 3), ...l.slice(4)]);
    assert.deepEqual(only(await findingsOf(noResult, 'check'), 'claude/unanswered-tool-use'), ['claude/unanswered-tool-use@3']);
    const swapped = mutateLines(SESSION, (l) => [l[0], l[1], l[3], l[2], ...l.slice(4)]);
    assert.deepEqual(only(await findingsOf(swapped, 'check'), 'claude/tool-result-pairing'), ['claude/tool-result-pairing@3']);
  });

  it('claude/sidechain-root: a sidechain line linked into the main chain', async () => {
    const file = mutateLines(SIDECHAIN, (l) => editJson(l, 2, (v) => (v.parentUuid = '97965533-18f3-41b7-aa07-0c438f2a5893')));
    assert.deepEqual(only(await findingsOf(file, 'check'), 'claude/sidechain-root'), ['claude/sidechain-root@3']);
    assert.deepEqual(only(await findingsOf(SIDECHAIN, 'check'), 'claude/sidechain-root'), []);
  });

  it('claude/split-message: notes differing requestIds', async () => {
    const file = mutateLines(SIDECHAIN, (l) => editJson(l, 3, (v) => (v.requestId = 'req_other')));
    const f = (await runAll(file, 'check')).filter((x) => x.rule === 'claude/split-message');
    assert.equal(f.length, 1);
    assert.match(f[0].message, /differing requestIds req_011CVJ51ytkcBEjrQhRNswqR, req_other/);
  });

  it('claude/timestamp-order: a reply older than its parent', async () => {
    const file = linkedSession((l) => editJson(l, 2, (v) => (v.timestamp = '2025-12-24T09:59:00.000Z')));
    assert.deepEqual(only(await findingsOf(file, 'check'), 'claude/timestamp-order'), ['claude/timestamp-order@3']);
  });

  it('claude/message-schema: assistant content that is not a block array, a tool_use without id', async () => {
    const file = linkedSession((l) => editJson(editJson(l, 7, (v) => (v.message.content = 'plain')), 4, (v) => delete v.message.content[0].id));
    const f = (await runAll(file, 'check')).filter((x) => x.rule === 'claude/message-schema');
    assert.deepEqual(f.map((x) => x.line), [5, 8]);
    assert.match(f[0].message, /message\.content\[0\]\.id/);
  });

  it('claude/summary-leaf: a leaf in another session file of the directory satisfies it', async () => {
    const dir = tempDir();
    tempFile('a.jsonl', '{"type":"summary","summary":"s","leafUuid":"leaf-1"}\n{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"a","message":{"role":"user","content":"x"}}\n', dir);
    tempFile('b.jsonl', '{"type":"user","uuid":"leaf-1","parentUuid":null,"sessionId":"b","message":{"role":"user","content":"y"}}\n', dir);
    assert.deepEqual(await findingsOf(join(dir, 'a.jsonl'), 'verify'), []);
  });
});
