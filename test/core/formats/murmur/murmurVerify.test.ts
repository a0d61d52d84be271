import { strict as assert } from 'node:assert';
import { CheckResult } from '../../../../src/core/checks/runChecks';
import { cleanup, CORPUS_TRACE, edit, eventId, ID, META_TRACE, murmurFindings, parentLines, readLines, run, writeTrace } from './murmurTestKit';

const corpus = () => readLines(CORPUS_TRACE);
const SUPERSEDED = ['parse/invalid-json', 'parse/torn-tail', 'tree/duplicate-id', 'tree/dangling-parent', 'tree/cycle', 'generic/time-backwards'];

async function verify(lines: string[], opts: { newline?: boolean; blobs?: boolean } = {}): Promise<CheckResult> {
  const { result } = await run(writeTrace(lines, opts), 'verify');
  for (const f of result.findings) assert.ok(!SUPERSEDED.includes(f.rule), `generic ${f.rule} should be superseded: ${f.message}`);
  return result;
}

describe('murmur verify', () => {
  after(cleanup);

  it('finds the corpus trace intact, with no finding at all', async () => {
    const { result } = await run(CORPUS_TRACE, 'verify');
    assert.deepEqual(result.findings, []);
    assert.equal(result.ok, true);
    assert.equal(result.checked, 7);
  });

  it('finds no murmur problem in the meta fixture (no blobs/: only the blob module\'s note)', async () => {
    const { result } = await run(META_TRACE, 'verify');
    assert.deepEqual(murmurFindings(result), []);
    assert.deepEqual(result.findings.map((f) => f.rule), ['blob/no-store']);
    assert.equal(result.ok, true);
  });

  describe('murmur/parent-exists', () => {
    it('a deleted line leaves its child dangling at the child\'s new line', async () => {
      const lines = corpus();
      lines.splice(2, 1); // the turn-0 inference; its tool_call moves to line 3
      const { model, result } = await run(writeTrace(lines), 'verify');
      assert.deepEqual(murmurFindings(result), ['murmur/parent-exists error 3']);
      assert.match(result.findings.find((f) => f.rule === 'murmur/parent-exists')!.message, new RegExp(ID.turn0));
      assert.equal(result.findings.find((f) => f.rule === 'murmur/parent-exists')!.eventId, ID.tool);
      assert.deepEqual(parentLines(model), [null, 1, null, 2, 2, 1]);
      assert.equal(result.ok, false);
    });

    it('a parent_id changed to an unknown id', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.parent_id = 'evt_019b76daacb37821b3ab48767734d7c2'; });
      assert.deepEqual(murmurFindings(await verify(lines)), ['murmur/parent-exists error 4']);
    });

    it('a TraceWriter parent written later is an error naming its line', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.parent_id = ID.sessionEnd; });
      const r = await verify(lines);
      assert.deepEqual(murmurFindings(r), ['murmur/parent-exists error 4']);
      assert.match(r.findings[0].message, /session_end on line 7, after this line/);
    });

    it('an appender line written before session_start is a forward reference: warning', async () => {
      const read = JSON.stringify({ event_type: 'resource_read', event_id: eventId(1767225600000, 1), parent_id: ID.session, session_id: 'ses_39263059f28c105d1fb17c2390c192cf', timestamp: 1767225600000, path: 'a.txt', outcome: 'ok', bytes: 1, sha256: null, generation: 0, containment_achieved: 'scoped', reason: null });
      const r = await verify([read, ...corpus()]);
      assert.deepEqual(murmurFindings(r), ['murmur/parent-exists warning 1']);
      assert.equal(r.ok, true);
    });

    it('a non-string parent_id is a broken link', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.parent_id = 42; });
      assert.deepEqual(murmurFindings(await verify(lines)), ['murmur/parent-exists error 4']);
    });
  });

  describe('murmur/event-id-unique', () => {
    it('a duplicated line repeats an id', async () => {
      const lines = corpus();
      lines.splice(4, 0, lines[3]);
      const r = await verify(lines);
      assert.deepEqual(murmurFindings(r), ['murmur/event-id-unique error 5']);
      assert.match(r.findings.find((f) => f.rule === 'murmur/event-id-unique')!.message, /tool_call on line 4/);
    });

    it('tolerates a repeated session_start with the same id (§7.3)', async () => {
      const lines = corpus();
      lines.splice(5, 0, edit(lines[0], (o) => { o.timestamp = 1767225602491; }));
      assert.deepEqual(murmurFindings(await verify(lines)), []);
    });

    it('does not tolerate another event reusing the session id', async () => {
      const lines = corpus();
      lines.splice(5, 0, edit(lines[3], (o) => { o.event_id = ID.session; }));
      assert.deepEqual(murmurFindings(await verify(lines)), ['murmur/event-id-unique error 6']);
    });
  });

  describe('murmur/event-id-format', () => {
    it('an id that is not evt_ + 32 lowercase hex', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.event_id = 'evt_019B76DAACBF730A965EDA32DAE44550'; });
      assert.deepEqual(murmurFindings(await verify(lines)), ['murmur/event-id-format error 4']);
    });

    it('a caller-supplied control_change id is only a warning', async () => {
      const lines = readLines(META_TRACE);
      lines[22] = edit(lines[22], (o) => { o.event_id = 'chg-7'; });
      lines[23] = edit(lines[23], (o) => { o.change_id = 'chg-7'; });
      const r = await verify(lines, { blobs: false });
      assert.deepEqual(murmurFindings(r), ['murmur/event-id-format warning 23']);
      assert.equal(r.ok, true);
    });
  });

  describe('murmur/parent-depth', () => {
    it('a parent cycle is reported once, on the line whose parent_id points forward', async () => {
      const lines = corpus();
      lines[1] = edit(lines[1], (o) => { o.parent_id = ID.turn0; }); // task_start ⇄ turn-0 inference
      const r = await verify(lines);
      assert.deepEqual(murmurFindings(r), ['murmur/parent-depth error 2', 'murmur/parent-exists error 2']);
      assert.equal(r.findings.find((f) => f.rule === 'murmur/parent-depth')!.message, `Parent links form a cycle: ${ID.task} → ${ID.turn0} → ${ID.task}.`);
    });

    it('an event naming itself', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.parent_id = ID.tool; });
      assert.deepEqual(murmurFindings(await verify(lines)), ['murmur/parent-depth error 4']);
    });

    it('a chain longer than 4 hops', async () => {
      const lines = corpus();
      const a = eventId(1767225601300, 1);
      const b = eventId(1767225601301, 2);
      const note = (id: string, parent: string, ts: number) => JSON.stringify({ event_type: 'note', event_id: id, parent_id: parent, session_id: 'ses_39263059f28c105d1fb17c2390c192cf', timestamp: ts });
      lines.splice(4, 0, note(a, ID.tool, 1767225601300), note(b, a, 1767225601301)); // a: 4 hops, b: 5 hops
      assert.deepEqual(murmurFindings(await verify(lines)), ['murmur/parent-depth error 6']);
    });
  });

  it('murmur/sha-format: blob references that are not 64 lowercase hex', async () => {
    const lines = corpus();
    lines[2] = edit(lines[2], (o) => { o.system_sha = (o.system_sha as string).toUpperCase(); (o.message_shas as string[])[0] = 'abc'; });
    lines[0] = edit(lines[0], (o) => { o.system_prompt_sha256 = 'sha256:28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f'; });
    const r = await verify(lines);
    assert.deepEqual(murmurFindings(r), ['murmur/sha-format error 1', 'murmur/sha-format error 3', 'murmur/sha-format error 3']);
    assert.match(r.findings.filter((f) => f.rule === 'murmur/sha-format')[2].message, /^message_shas\[0\] is "abc"/);
  });

  it('murmur/sha-format: a null system_prompt_sha256 (no prompt) is fine', async () => {
    const lines = corpus();
    lines[0] = edit(lines[0], (o) => { o.system_prompt_sha256 = null; });
    assert.deepEqual(murmurFindings(await verify(lines)), []);
  });

  describe('murmur/line-json', () => {
    it('a garbled line in the middle that is not followed by shell_lost is an error', async () => {
      const lines = corpus();
      lines.splice(3, 1, lines[3].slice(0, 120));
      const r = await verify(lines);
      assert.deepEqual(murmurFindings(r), ['murmur/line-json error 4']);
    });

    it('a torn last line without newline is a warning', async () => {
      const lines = corpus();
      lines[6] = lines[6].slice(0, 50);
      const r = await verify(lines, { newline: false });
      assert.deepEqual(murmurFindings(r), ['murmur/line-json warning 7']);
    });

    it('a line that is JSON but not an object is an error', async () => {
      const lines = corpus();
      lines.splice(3, 0, '"just a string"');
      assert.deepEqual(murmurFindings(await verify(lines)), ['murmur/line-json error 4']);
    });
  });
});
