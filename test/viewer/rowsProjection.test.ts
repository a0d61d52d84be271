import { strict as assert } from 'node:assert';
import { malformedNode, RowProjection, TreeSource } from '../../src/viewer/rowModel';

/** A tree from a parent array (events in line order, line = index + 1 unless `lines` says otherwise). */
function treeOf(parents: number[], malformedLines: number[] = [], lines?: number[]): TreeSource {
  const children: number[][] = parents.map(() => []);
  const roots: number[] = [];
  parents.forEach((p, i) => (p < 0 ? roots.push(i) : children[p].push(i)));
  const depth = (i: number): number => (parents[i] < 0 ? 0 : 1 + depth(parents[i]));
  return {
    eventCount: parents.length,
    roots,
    children: (i) => children[i],
    childCount: (i) => children[i].length,
    depth,
    parent: (i) => parents[i],
    lineOf: (i) => (lines ? lines[i] : i + 1),
    malformedLines,
  };
}

function visible(p: RowProjection): number[] {
  const out: number[] = [];
  for (let r = 0; r < p.size; r++) out.push(p.nodeAt(r));
  return out;
}

//        0
//      / | \
//     1  4  6
//    / \    |
//   2   3   7
//           |
//           8
//  5 is a second root (orphan), 9 a third root
const PARENTS = [-1, 0, 1, 1, 0, -1, 0, 6, 7, -1];

describe('row projection', () => {
  it('starts collapsed to the roots, in line order', () => {
    const p = new RowProjection(treeOf(PARENTS));
    assert.deepEqual(visible(p), [0, 5, 9]);
    assert.equal(p.hasChildren(0), true);
    assert.equal(p.hasChildren(5), false);
  });

  it('expand all gives the pre-order of the whole tree; collapse all gives the roots', () => {
    const p = new RowProjection(treeOf(PARENTS));
    p.expandAll();
    assert.deepEqual(visible(p), [0, 1, 2, 3, 4, 6, 7, 8, 5, 9]);
    assert.equal(p.allExpanded(), true);
    p.collapseAll();
    assert.deepEqual(visible(p), [0, 5, 9]);
  });

  it('expanding inserts the visible subtree after the row, keeping nested expansion', () => {
    const p = new RowProjection(treeOf(PARENTS));
    p.toggle(0, true);
    assert.deepEqual(visible(p), [0, 1, 4, 6, 5, 9]);
    p.toggle(6, true);
    p.toggle(7, true);
    assert.deepEqual(visible(p), [0, 1, 4, 6, 7, 8, 5, 9]);
    p.toggle(0, false);
    assert.deepEqual(visible(p), [0, 5, 9]);
    p.toggle(0); // toggle back: 6 and 7 are still expanded underneath
    assert.deepEqual(visible(p), [0, 1, 4, 6, 7, 8, 5, 9]);
  });

  it('toggle of a leaf or a no-op change does not bump the version', () => {
    const p = new RowProjection(treeOf(PARENTS));
    const v = p.version;
    assert.equal(p.toggle(5), false);
    assert.equal(p.toggle(0, false), false);
    assert.equal(p.version, v);
    assert.equal(p.toggle(0, true), true);
    assert.ok(p.version > v);
  });

  it('places malformed lines among the roots by line number', () => {
    // events on lines 1, 2, 3, 5 (root 0 with child 1; roots 2 and 3); malformed lines 4 and 7
    const p = new RowProjection(treeOf([-1, 0, -1, -1], [4, 7], [1, 2, 3, 5]));
    assert.deepEqual(visible(p), [0, 2, malformedNode(0), 3, malformedNode(1)]);
    p.expandAll();
    assert.deepEqual(visible(p), [0, 1, 2, malformedNode(0), 3, malformedNode(1)]);
    assert.equal(p.depthOf(malformedNode(1)), 0);
    assert.equal(p.hasChildren(malformedNode(0)), false);
  });

  it('reveal expands the collapsed ancestors and returns the row', () => {
    const p = new RowProjection(treeOf(PARENTS));
    const row = p.reveal(8);
    assert.deepEqual(visible(p), [0, 1, 4, 6, 7, 8, 5, 9]);
    assert.equal(row, 5);
    assert.equal(p.rowOf(8), 5);
    assert.equal(p.isExpanded(1), false, 'siblings of the path stay collapsed');
  });

  it('setSubtree expands or collapses a whole branch', () => {
    const p = new RowProjection(treeOf(PARENTS));
    p.setSubtree(6, true);
    p.toggle(0, true);
    assert.deepEqual(visible(p), [0, 1, 4, 6, 7, 8, 5, 9]);
    p.setSubtree(0, false);
    assert.deepEqual(visible(p), [0, 5, 9]);
    p.toggle(0, true);
    assert.deepEqual(visible(p), [0, 1, 4, 6, 5, 9], 'the branch below stays collapsed');
  });

  it('expandToDepth opens only the upper levels', () => {
    const p = new RowProjection(treeOf(PARENTS));
    p.expandToDepth(1);
    assert.deepEqual(visible(p), [0, 1, 4, 6, 5, 9]);
  });

  it('filter keeps matches with their ancestors as context, all expanded; clearing restores the view', () => {
    const p = new RowProjection(treeOf(PARENTS, [11]));
    p.toggle(0, true);
    p.setFilter((i) => i === 3 || i === 8, false);
    assert.deepEqual(visible(p), [0, 1, 3, 6, 7, 8]);
    assert.equal(p.isContext(0), true);
    assert.equal(p.isContext(3), false);
    assert.equal(p.hasChildren(1), true);
    assert.equal(p.hasChildren(4), false);
    assert.equal(p.passes(malformedNode(0)), false);
    // collapsing in the filtered view does not touch the unfiltered expansion
    p.toggle(6, false);
    assert.deepEqual(visible(p), [0, 1, 3, 6]);
    p.setFilter(null);
    assert.deepEqual(visible(p), [0, 1, 4, 6, 5, 9, malformedNode(0)]);
    assert.deepEqual(p.expandedNodes(), [0]);
  });

  it('reveal refuses a node the filter hides', () => {
    const p = new RowProjection(treeOf(PARENTS));
    p.setFilter((i) => i === 2);
    assert.equal(p.reveal(8), -1);
    assert.equal(p.reveal(2), 2);
  });

  it('expanded nodes round-trip through setExpandedNodes', () => {
    const p = new RowProjection(treeOf(PARENTS));
    p.reveal(8);
    const saved = p.expandedNodes();
    assert.deepEqual(saved, [0, 6, 7]);
    const q = new RowProjection(treeOf(PARENTS));
    q.setExpandedNodes(saved);
    assert.deepEqual(visible(q), visible(p));
  });

  it('grows its rows as subtrees are expanded one by one, to the same rows as expand all', () => {
    // 12,000 events: roots every 4,000 events, each with 3,999 children, every hundredth of those with one child.
    const parents = Array.from({ length: 12_000 }, (_, i) => (i % 4000 === 0 ? -1 : i % 100 === 1 && i % 4000 > 1 ? i - 1 : i - (i % 4000)));
    const one = new RowProjection(treeOf(parents));
    assert.deepEqual(visible(one), [0, 4000, 8000]);
    for (const root of [8000, 0, 4000]) one.toggle(root, true);
    for (let i = 0; i < parents.length; i++) if (i % 100 === 0 && i % 4000 !== 0) one.toggle(i, true);
    const all = new RowProjection(treeOf(parents));
    all.expandAll();
    assert.equal(one.size, 12_000);
    assert.deepEqual(visible(one), visible(all));
  });

  it('handles a million events without recursion (deep chain and wide fan-out)', () => {
    const n = 1_000_000;
    // first half: one deep chain; second half: children of event 0
    const parents = new Array<number>(n);
    parents[0] = -1;
    for (let i = 1; i < n / 2; i++) parents[i] = i - 1;
    for (let i = n / 2; i < n; i++) parents[i] = 0;
    const children: number[][] = Array.from({ length: n }, () => []);
    for (let i = 1; i < n; i++) children[parents[i]].push(i);
    const depth = new Int32Array(n);
    for (let i = 1; i < n; i++) depth[i] = depth[parents[i]] + 1;
    const src: TreeSource = {
      eventCount: n,
      roots: [0],
      children: (i) => children[i],
      childCount: (i) => children[i].length,
      depth: (i) => depth[i],
      parent: (i) => parents[i],
      lineOf: (i) => i + 1,
      malformedLines: [],
    };
    const p = new RowProjection(src);
    p.expandAll();
    assert.equal(p.size, n);
    assert.equal(p.nodeAt(n - 1), n - 1);
    p.toggle(1, false);
    assert.equal(p.size, 2 + n / 2, 'collapsing the chain removes it in one splice');
    assert.equal(p.nodeAt(2), n / 2);
    p.collapseAll();
    assert.equal(p.reveal(n / 2 - 1), n / 2 - 1);
  });
});
