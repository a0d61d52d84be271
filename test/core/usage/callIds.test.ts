import { strict as assert } from 'node:assert';
import { MentionColumns } from '../../../src/core/mentionColumns';
import { Interner } from '../../../src/core/tableColumns';
import { CallIds } from '../../../src/core/usage/callIds';

/** The pairing as its contract says, with a plain map: a call's call-id mentions, in order, name the first earlier
 * unpaired call that mentioned the id; the first such call of the same tool is its call, else it stands alone and
 * its ids are remembered. */
function reference(events: { field: string; id: string }[][], names: string[]): number[] {
  const first = new Map<string, number>();
  return events.map((mentions, i) => {
    for (const m of mentions) {
      if (!/(^|\.)(call_id|tool_use_id|tool_call_id)$/.test(m.field) || m.id === '') continue;
      const j = first.get(m.id);
      if (j !== undefined && names[j] === names[i]) return j;
    }
    for (const m of mentions) if (m.id !== '' && !first.has(m.id)) first.set(m.id, i);
    return i;
  });
}

describe('call-id pairing (CallIds)', () => {
  it('pairs as a plain map of first mentions does, over 3,000 random runs of calls', () => {
    let seed = 11;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const fields = ['tool_call_id', 'task_id', 'content[0].id', 'message.tool_use_id', 'call_id', 'parent_id'];
    let paired = 0;
    let alone = 0;
    for (let run = 0; run < 3000; run++) {
      const n = 1 + rnd(30);
      const pool = 1 + rnd(40);
      const events = Array.from({ length: n }, () => Array.from({ length: rnd(5) }, () => ({ field: fields[rnd(fields.length)], id: rnd(10) === 0 ? '' : `id_${rnd(pool)}` })));
      const names = events.map(() => (rnd(3) === 0 ? 'read' : 'bash'));
      const m = new MentionColumns(new Interner());
      events.forEach((e, i) => m.add(i, e));
      const ids = new CallIds(m);
      for (let i = 0; i < n; i++) ids.expect(i);
      ids.expectDone();
      const got = events.map((_, i) => ids.pairedCall(names, i));
      const want = reference(events, names);
      assert.deepEqual(got, want, JSON.stringify({ events, names }));
      for (let i = 0; i < n; i++) if (want[i] === i) alone++;
      else paired++;
    }
    // Both outcomes were compared many times.
    assert.ok(paired > 1000 && alone > 1000, `${paired} paired, ${alone} alone`);
  });

  it('a call that looks up only its own new id (murmur) stands alone, and a later call naming it is paired', () => {
    const events = [
      [{ field: 'tool_call_id', id: 'toolu_1' }, { field: 'task_id', id: 'tsk_1' }],
      [{ field: 'tool_call_id', id: 'toolu_2' }, { field: 'task_id', id: 'tsk_1' }],
      [{ field: 'tool_call_id', id: 'toolu_1' }],
    ];
    const m = new MentionColumns(new Interner());
    events.forEach((e, i) => m.add(i, e));
    const ids = new CallIds(m);
    events.forEach((_, i) => ids.expect(i));
    ids.expectDone();
    assert.deepEqual(events.map((_, i) => ids.pairedCall(['bash', 'bash', 'bash'], i)), [0, 1, 0]);
  });
});
