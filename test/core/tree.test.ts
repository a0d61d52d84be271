// The tree's children lists, roots and depths against a plain reference made from the parent links alone: on
// every corpus file, and on chains deep enough for each width the depths are kept in, with parents named after
// their children and a cycle.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { EventTable } from '../../src/core/eventTable';
import { loadTrace } from '../../src/core/loadTrace';
import type { Finding } from '../../src/core/model';
import { buildTree, EventTree } from '../../src/core/tree';
import { CORPUS_ROOT, traceFilesUnder, WRITER_CORPUS } from '../helpers/corpus';

/** Children in file order, roots and depths (by walking up), made from `parent` only. */
function reference(table: EventTable): { children: number[][]; roots: number[]; depths: number[] } {
  const children: number[][] = Array.from({ length: table.size }, () => []);
  const roots: number[] = [];
  const depths: number[] = [];
  for (let i = 0; i < table.size; i++) {
    const p = table.parent(i);
    if (p < 0) roots.push(i);
    else children[p].push(i);
    let d = 0;
    for (let j = p; j >= 0; j = table.parent(j)) d++;
    depths.push(d);
  }
  return { children, roots, depths };
}

function assertTree(table: EventTable, tree: EventTree, what: string): void {
  const ref = reference(table);
  assert.deepEqual([...tree.roots], ref.roots, `${what}: roots`);
  for (let i = 0; i < table.size; i++) {
    assert.deepEqual([...tree.children(i)], ref.children[i], `${what}: children of ${i}`);
    assert.equal(tree.childCount(i), ref.children[i].length, `${what}: child count of ${i}`);
    assert.deepEqual([...tree.childList.subarray(tree.childStart[i], tree.childStart[i + 1])], ref.children[i], `${what}: flat children of ${i}`);
    assert.equal(tree.depth(i), ref.depths[i], `${what}: depth of ${i}`);
  }
}

/** A table of `n` events: event i names `parentOf(i)`'s id as its parent (null: a root). */
function tableOf(n: number, parentOf: (i: number) => number | null): EventTable {
  const t = new EventTable();
  for (let i = 0; i < n; i++) {
    const p = parentOf(i);
    t.add({ kind: 'step', label: '', id: `e${i}`, parentId: p === null ? null : `e${p}` }, { line: i + 1, offset: 0, length: 0 });
  }
  return t;
}

describe('buildTree: children, roots and depths', () => {
  it('on every corpus file, real-writer file and sample, as the parent links say', async () => {
    const files = [...traceFilesUnder(CORPUS_ROOT), ...traceFilesUnder(WRITER_CORPUS), ...traceFilesUnder(join(__dirname, '..', '..', 'samples'))];
    assert.ok(files.length > 20, `only ${files.length} files`);
    let events = 0;
    for (const f of files) {
      const model = await loadTrace(f);
      assertTree(model.events, model.tree, f);
      events += model.events.size;
    }
    assert.ok(events > 1000, `only ${events} events`);
  });

  it('keeps depths past one byte and past two bytes (chains of 300 and 70,000 events)', () => {
    for (const n of [300, 70_000]) {
      const t = tableOf(n, (i) => (i === 0 ? null : i - 1));
      const tree = buildTree(t, []);
      assert.equal(tree.depth(n - 1), n - 1);
      if (n === 300) assertTree(t, tree, `chain of ${n}`);
    }
  });

  it('links parents named after their children, and cuts a cycle at its last member (a finding)', () => {
    // 0 <- 1 <- 2 named backwards: event i's parent is i + 1, up to 5; 6 -> 7 -> 8 -> 6 is a cycle.
    const t = tableOf(9, (i) => (i < 5 ? i + 1 : i === 5 ? null : i === 8 ? 6 : i + 1));
    const findings: Finding[] = [];
    const tree = buildTree(t, findings);
    assert.deepEqual(findings.map((f) => [f.rule, f.line]), [['tree/cycle', 9]]);
    assert.equal(t.parent(8), -1);
    assert.deepEqual([...tree.roots], [5, 8]);
    assert.equal(tree.depth(0), 5);
    assertTree(t, tree, 'forward parents');
  });
});
