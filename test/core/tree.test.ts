// The tree's children lists, roots and depths against a plain reference made from the parent links alone: on
// every corpus file, and on chains deep enough for each width the depths are kept in, with parents named after
// their children and a cycle.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { EventTable } from '../../src/core/eventTable';
import { loadTrace } from '../../src/core/loadTrace';
import type { Finding } from '../../src/core/model';
import { buildTree, EventTree, linkChildren } from '../../src/core/tree';
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

describe('buildTree: display parents beside the recorded links (EventDraft.displayParent)', () => {
  /** Events `e0`…: each names `links[i]`'s id as its parent (null: none, a string: that id) and is shown under `display[i]`. */
  function tableWith(links: (number | string | null)[], display: (number | undefined)[]): EventTable {
    const t = new EventTable();
    links.forEach((l, i) => {
      const parentId = l === null ? null : typeof l === 'string' ? l : `e${l}`;
      t.add({ kind: 'step', label: '', id: `e${i}`, parentId, ...(display[i] === undefined ? {} : { displayParent: display[i] }) }, { line: i + 1, offset: 0, length: 0 });
    });
    return t;
  }

  it('nests by the display parents; the links stay resolved, named and checked as without them', () => {
    // A chain 0 <- 1 <- 2 <- 3 <- 4 shown as 0 > {1, 2 > {3}}, 4 a root; 5 names a missing parent, 6 itself.
    const links = [null, 0, 1, 2, 3, 'gone', 6];
    const t = tableWith(links, [-1, 0, 0, 2, -1, 0, 0]);
    const findings: Finding[] = [];
    const tree = buildTree(t, findings);
    assert.deepEqual([...tree.roots], [0, 4]);
    assert.deepEqual([...tree.children(0)], [1, 2, 5, 6]);
    assert.deepEqual([...tree.children(2)], [3]);
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => tree.depth(i)), [0, 1, 1, 2, 0]);
    assert.deepEqual(links.map((_, i) => t.linkOf(i)), [-1, 0, 1, 2, 3, -1, -1]);
    assert.deepEqual(links.map((_, i) => t.parentId(i)), [null, 'e0', 'e1', 'e2', 'e3', 'gone', 'e6']);
    assert.deepEqual(links.map((_, i) => t.get(i).parent), [-1, 0, 0, 2, -1, 0, 0]);
    assert.deepEqual([...t.parents()], [-1, 0, 0, 2, -1, 0, 0]);
    // The same findings as the links alone give.
    const plain = tableWith(links, []);
    const plainFindings: Finding[] = [];
    buildTree(plain, plainFindings);
    assert.deepEqual(findings, plainFindings);
    assert.deepEqual(findings.map((f) => [f.rule, f.line]), [['tree/dangling-parent', 6], ['tree/cycle', 7]]);
    assertTree(t, tree, 'display parents');
  });

  it('linkChildren gives the roots and children of the links (for the summary\'s roots and inferred retries)', () => {
    const links = [null, 0, 1, 2, 3, 'gone', 6];
    const t = tableWith(links, [-1, 0, 0, 2, -1, 0, 0]);
    const tree = buildTree(t, []);
    const plain = tableWith(links, []);
    const plainTree = buildTree(plain, []);
    const l = linkChildren(t, tree);
    assert.deepEqual([[...l.roots], [...l.childStart], [...l.childList]], [[...plainTree.roots], [...plainTree.childStart], [...plainTree.childList]]);
    assert.equal(linkChildren(plain, plainTree), plainTree, 'without display parents: the tree itself');
  });

  it('cuts a cycle of the links (a finding, as without display parents) and leaves the display as it is', () => {
    // 1 -> 2 -> 3 -> 1 by their links, all shown under 0.
    const links = [null, 2, 3, 1];
    const t = tableWith(links, [-1, 0, 0, 0]);
    const findings: Finding[] = [];
    const tree = buildTree(t, findings);
    const plainFindings: Finding[] = [];
    buildTree(tableWith(links, []), plainFindings);
    assert.deepEqual(findings, plainFindings);
    assert.deepEqual(findings.map((f) => [f.rule, f.line]), [['tree/cycle', 4]]);
    assert.deepEqual([t.linkOf(1), t.linkOf(2), t.linkOf(3)], [2, 3, -1]);
    assert.deepEqual([...tree.children(0)], [1, 2, 3]);
  });

  it('a later display parent makes a root; a ring through a forward link is cut at its display event, with no finding', () => {
    // Event 1 has no display parent and links to the later 2, which is shown under 1: a ring of the display only.
    const t = tableWith([null, 2, null, null], [-1, undefined, 1, 9]);
    const findings: Finding[] = [];
    const tree = buildTree(t, findings);
    assert.deepEqual(findings, []);
    assert.equal(t.linkOf(1), 2);
    assert.deepEqual([...tree.roots], [0, 2, 3]);
    assert.deepEqual([...tree.children(2)], [1]);
    assertTree(t, tree, 'forward ring');
  });
});
