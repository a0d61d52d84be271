import { strict as assert } from 'node:assert';
import { CheckFacts } from '../../../src/core/stream/checkFacts';
import type { EventDraft } from '../../../src/core/model';

const N = 50_000;
const T0 = 1_764_000_000_000;

/** Adds drafts in order; `place` lines may skip (blank or malformed lines between events). */
function fill(drafts: (i: number) => Partial<EventDraft>, line: (i: number) => number = (i) => i + 1): CheckFacts {
  const f = new CheckFacts();
  for (let i = 0; i < N; i++) f.add({ kind: 'k', category: 'other', label: '', status: 'ok', ...drafts(i) } as EventDraft, { line: line(i), offset: 0, length: 1 });
  return f;
}

describe('CheckFacts: the streamed checks keep each event in a few bytes', () => {
  it('keeps a lumen-shaped run (one group, seq, ms times, parents a few events back, no ids) in under 12 bytes an event', () => {
    const f = fill((i) => ({ seq: i, time: T0 + i * 7, group: 'run-1', parentIndex: i === 0 ? null : i - 1 - (i % 5) }));
    // Before the parents are resolved (an Int32Array the checks then read): the columns kept while reading.
    const bytes = f.byteSize;
    const findings: unknown[] = [];
    f.links.findings(N, findings);
    assert.deepEqual(findings, []);
    for (const i of [0, 1, 2, 777, N - 1]) {
      assert.equal(f.lineOf(i), i + 1);
      assert.equal(f.seqOf(i), i);
      assert.equal(f.timeOf(i), T0 + i * 7);
      assert.equal(f.groupOf(i), 'run-1');
      assert.equal(f.parent(i), i === 0 ? -1 : i - 1 - (i % 5));
      assert.equal(f.id(i), null);
    }
    // Seqs and times in 32 bits, parents a byte, nothing for lines, group and ids; with the room of a doubling
    // array. Int32 lines, groups, ids, parent ids and parents with Float64 seqs and times were 36 bytes an event.
    assert.ok(bytes / N < 12, `${(bytes / N).toFixed(1)} bytes an event`);
  });

  it('gives back every value exactly: nulls, -0, fractions, far times, lines that skip, ids and parent ids', () => {
    const id = (i: number) => `evt_${i.toString(16).padStart(32, '0')}`;
    const f = fill(
      (i) => ({
        seq: i % 3 === 0 ? null : i % 7 === 0 ? -0 : i % 11 === 0 ? i + 0.5 : i,
        time: i % 13 === 0 ? null : i === 4242 ? 8.64e15 : T0 + i * 1000.25,
        group: i % 2 === 0 ? null : `g${i % 3}`,
        id: i % 17 === 0 ? null : id(i),
        parentId: i === 0 || i % 19 === 0 ? null : id(i - 1),
        parentIndex: i % 23 === 0 ? -1 : null,
      }),
      (i) => i * 2 + 1,
    );
    f.links.findings(N, []);
    for (let i = 0; i < N; i++) {
      assert.equal(f.lineOf(i), i * 2 + 1);
      const seq = i % 3 === 0 ? null : i % 7 === 0 ? -0 : i % 11 === 0 ? i + 0.5 : i;
      assert.ok(Object.is(f.seqOf(i), seq), `seq ${i}: ${f.seqOf(i)}`);
      assert.equal(f.timeOf(i), i % 13 === 0 ? null : i === 4242 ? 8.64e15 : T0 + i * 1000.25);
      assert.equal(f.groupOf(i), i % 2 === 0 ? null : `g${i % 3}`);
      assert.equal(f.id(i), i % 17 === 0 ? null : id(i));
      assert.equal(f.parentId(i), i === 0 || i % 19 === 0 ? null : id(i - 1));
      // A named parent resolves unless it has no id (i - 1 a multiple of 17: dangling).
      const named = i !== 0 && i % 19 !== 0 && (i - 1) % 17 !== 0;
      assert.equal(f.parent(i), named ? i - 1 : -1, `parent of ${i}`);
    }
  });
});
