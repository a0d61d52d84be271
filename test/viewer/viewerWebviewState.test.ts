import { strict as assert } from 'node:assert';
import type { RowData } from '../../src/protocol';
import { formatBytes, formatCount, formatDuration, formatOffset, formatTime, formatTokens } from '../../webview/format';
import { jsonPath } from '../../webview/jsonPath';
import { keyTarget } from '../../webview/listNav';
import { isWebLink, parseInline, parseMarkdown } from '../../webview/markdownParse';
import { PAGE_ROWS, RowCache } from '../../webview/rowCache';
import { SelectionHistory } from '../../webview/selectionHistory';

function rows(start: number, n: number): RowData[] {
  return Array.from({ length: n }, (_, k) => ({
    node: start + k, line: start + k + 1, depth: 0, parent: -1, kind: 'k', category: 'other', label: `r${start + k}`, status: 'ok',
    hasChildren: false, expanded: false, durationMs: null, tokensIn: null, tokensOut: null, offsetMs: null,
  }));
}

describe('webview state: row cache', () => {
  it('requests the pages around the viewport once, and serves rows after they arrive', () => {
    const c = new RowCache();
    c.reset(3, 1000);
    // The page in view first; once it is here, a page of margin on each side as requests of their own.
    assert.deepEqual(c.request(450, 480), [{ start: 400, count: 200 }]);
    assert.deepEqual(c.request(450, 480), [], 'in flight pages are not asked twice');
    assert.equal(c.get(450), undefined);
    assert.equal(c.put(3, 400, rows(400, 200)), true);
    assert.deepEqual(c.request(450, 480), [{ start: 200, count: 200 }, { start: 600, count: 200 }]);
    assert.equal(c.put(3, 200, rows(200, 600)), true);
    assert.equal(c.get(450)?.label, 'r450');
    assert.equal(c.get(799)?.label, 'r799');
  });

  it('drops rows of an older projection version', () => {
    const c = new RowCache();
    c.reset(3, 1000);
    c.request(0, 10);
    c.reset(4, 500);
    assert.equal(c.put(3, 0, rows(0, 200)), false);
    assert.equal(c.get(0), undefined);
    assert.deepEqual(c.request(0, 10), [{ start: 0, count: 200 }]);
  });

  it('asks for a view across two pages in one request, before the margins (issue 14 item 5)', () => {
    const c = new RowCache();
    c.reset(1, 1000);
    assert.deepEqual(c.request(390, 420), [{ start: 200, count: 400 }]);
    c.put(1, 200, rows(200, 400));
    assert.deepEqual(c.request(390, 420), [{ start: 0, count: 200 }, { start: 600, count: 200 }]);
    c.put(1, 0, rows(0, 200));
    c.put(1, 600, rows(600, 200));
    // Scrolling on by a page: only the new margin is missing.
    assert.deepEqual(c.request(600, 630), [{ start: 800, count: 200 }]);
  });

  it('keeps at most four pages on their way during a drag; the next request goes when an answer comes (issue 14 item 5)', () => {
    const c = new RowCache();
    c.reset(1, 1_000_000);
    const asked: number[] = [];
    // A drag: a new position every frame, far from the last, before any answer arrives.
    for (let k = 0; k < 20; k++) {
      const first = k * 5000;
      for (const p of c.request(first, first + 40)) asked.push(p.start);
      for (const p of c.prefetch(first + 5000, first + 5040)) asked.push(p.start);
    }
    assert.deepEqual(asked, [0, 5000, 10_000, 15_000], 'four pages, then nothing until an answer');
    // An answer frees a place: the next request is for where the view is now, not where it was.
    c.put(1, 0, rows(0, 200));
    assert.deepEqual(c.request(95_000, 95_040), [{ start: 95_000, count: 200 }]);
    assert.deepEqual(c.request(95_000, 95_040), []);
  });

  it('an answer with fewer rows than asked (the end of the list, or none) still frees its request', () => {
    const c = new RowCache();
    c.reset(1, 1000);
    c.request(0, 10);
    c.request(200, 210);
    c.request(400, 410);
    c.request(800, 810);
    assert.deepEqual(c.request(600, 610), [], 'four on their way');
    c.put(1, 800, []);
    assert.deepEqual(c.request(600, 610), [{ start: 600, count: 200 }]);
  });

  it('prefetches where a drag lands next without a margin, keeping the pages around the viewport (issue 14 item 5)', () => {
    const c = new RowCache();
    c.reset(1, 1_000_000);
    for (const p of c.request(500_000, 500_040)) c.put(1, p.start, rows(p.start, p.count));
    assert.deepEqual(c.prefetch(505_000, 505_040), [{ start: 505_000, count: 200 }]);
    assert.deepEqual(c.prefetch(505_000, 505_040), [], 'asked once');
    assert.deepEqual(c.prefetch(1_000_100, 1_000_140), [], 'nothing past the end');
    for (let k = 1; k <= 39; k++) c.put(1, 505_000 + k * 200, rows(505_000 + k * 200, 200));
    // The budget is full of pages ahead: the ones in view are still there, the farthest ahead went.
    assert.equal(c.get(500_020)?.label, 'r500020');
    assert.ok(c.pageCount <= 40);
  });

  it('clamps to the total and keeps memory flat when scrolling through a million rows', () => {
    const c = new RowCache();
    c.reset(1, 1_000_000);
    assert.deepEqual(c.request(999_990, 1_000_020), [{ start: 999_800, count: 200 }]);
    for (let first = 0; first < 1_000_000; first += 5000) {
      for (const p of c.request(first, first + 40)) c.put(1, p.start, rows(p.start, Math.min(p.count, 1_000_000 - p.start)));
    }
    assert.ok(c.pageCount <= 40, `pages held: ${c.pageCount}`);
    assert.equal(PAGE_ROWS, 200);
  });
});

describe('webview state: keyboard', () => {
  const leaf = { hasChildren: false, expanded: false, parent: 4 };
  const open = { hasChildren: true, expanded: true, parent: -1 };
  const closed = { hasChildren: true, expanded: false, parent: 2 };
  it('moves and clamps', () => {
    assert.deepEqual(keyTarget('ArrowDown', 5, 10, 4, leaf), { action: 'move', row: 6 });
    assert.deepEqual(keyTarget('ArrowUp', 0, 10, 4, leaf), { action: 'move', row: 0 });
    assert.deepEqual(keyTarget('End', 0, 10, 4, leaf), { action: 'move', row: 9 });
    assert.deepEqual(keyTarget('Home', 7, 10, 4, leaf), { action: 'move', row: 0 });
    assert.deepEqual(keyTarget('PageDown', 7, 10, 4, leaf), { action: 'move', row: 9 });
    assert.deepEqual(keyTarget('PageUp', 7, 10, 4, leaf), { action: 'move', row: 3 });
  });
  it('the first ArrowDown with nothing selected selects the focused row (row 1), not the row after it', () => {
    assert.deepEqual(keyTarget('ArrowDown', 0, 10, 4, leaf, false), { action: 'move', row: 0 });
    assert.deepEqual(keyTarget('ArrowUp', 3, 10, 4, leaf, false), { action: 'move', row: 3 });
    assert.deepEqual(keyTarget('ArrowDown', 0, 10, 4, leaf, true), { action: 'move', row: 1 });
  });
  it('expands, collapses, steps into children and out to the parent', () => {
    assert.deepEqual(keyTarget('ArrowRight', 2, 10, 4, closed), { action: 'toggle', expand: true });
    assert.deepEqual(keyTarget('ArrowRight', 2, 10, 4, open), { action: 'move', row: 3 });
    assert.equal(keyTarget('ArrowRight', 2, 10, 4, leaf), null);
    assert.deepEqual(keyTarget('ArrowLeft', 2, 10, 4, open), { action: 'toggle', expand: false });
    assert.deepEqual(keyTarget('ArrowLeft', 2, 10, 4, closed), { action: 'parent' });
    assert.equal(keyTarget('ArrowLeft', 0, 10, 4, { hasChildren: false, expanded: false, parent: -1 }), null);
    assert.deepEqual(keyTarget('Enter', 2, 10, 4, leaf), { action: 'select' });
    assert.equal(keyTarget('Enter', 2, 10, 4, null), null, 'a row still loading cannot be selected');
    assert.equal(keyTarget('x', 2, 10, 4, leaf), null);
    assert.equal(keyTarget('ArrowDown', 0, 0, 4, null), null);
  });
});

describe('webview state: markdown parsing keeps markup as text', () => {
  it('parses blocks', () => {
    const b = parseMarkdown('# Title\n\npara one\nline two\n\n- a\n- b\n\n1. x\n2. y\n\n```js\n<b>x</b>\n```\n> quote\n\n---');
    assert.deepEqual(b.map((x) => x.t), ['heading', 'para', 'list', 'list', 'code', 'quote', 'rule']);
    assert.deepEqual(b[4], { t: 'code', lang: 'js', v: '<b>x</b>' });
  });
  it('parses inline code, emphasis and links, and leaves HTML as text', () => {
    assert.deepEqual(parseInline('a `<b>` **bold** *em* [t](https://x.y) <img onerror=1>'), [
      { t: 'text', v: 'a ' },
      { t: 'code', v: '<b>' },
      { t: 'text', v: ' ' },
      { t: 'strong', c: [{ t: 'text', v: 'bold' }] },
      { t: 'text', v: ' ' },
      { t: 'em', c: [{ t: 'text', v: 'em' }] },
      { t: 'text', v: ' ' },
      { t: 'link', c: [{ t: 'text', v: 't' }], href: 'https://x.y' },
      { t: 'text', v: ' <img onerror=1>' },
    ]);
    assert.deepEqual(parseInline('snake_case_name'), [{ t: 'text', v: 'snake_case_name' }]);
  });
  it('only follows http and https links', () => {
    assert.equal(isWebLink('https://example.com'), true);
    assert.equal(isWebLink('javascript:alert(1)'), false);
    assert.equal(isWebLink(' JavaScript:alert(1)'), false);
    assert.equal(isWebLink('data:text/html,x'), false);
    assert.equal(isWebLink('command:workbench.action.quit'), false);
  });
  it('stays linear on long text full of markers', () => {
    const text = '*_`['.repeat(50_000);
    const t = Date.now();
    parseMarkdown(text);
    assert.ok(Date.now() - t < 3000);
  });
});

describe('webview state: formatting, paths and history', () => {
  it('formats durations, offsets, tokens, bytes and times', () => {
    assert.equal(formatDuration(12), '12 ms');
    assert.equal(formatDuration(1500), '1.5 s');
    assert.equal(formatDuration(184_000), '3 min 4 s');
    assert.equal(formatDuration(null), '');
    assert.equal(formatOffset(2000), '+2.000 s');
    assert.equal(formatTokens(1200, 340), '1.2k→340');
    assert.equal(formatTokens(null, 58), '?→58');
    assert.equal(formatCount(2_100_000), '2.1M');
    assert.equal(formatBytes(312 * 1024 * 1024), '312 MB');
    assert.equal(formatTime('2026-01-01T00:00:02.000Z'), '2026-01-01 00:00:02.000 UTC');
  });
  it('writes JSON paths a reader can paste', () => {
    assert.equal(jsonPath([]), '$');
    assert.equal(jsonPath(['message', 'content', 0, 'text']), 'message.content[0].text');
    assert.equal(jsonPath(['attributes', 'http.status']), 'attributes["http.status"]');
  });
  it('goes back and forward through selections without forking on the way', () => {
    const h = new SelectionHistory();
    h.visit(1);
    h.visit(5);
    h.visit(9);
    assert.equal(h.back(), 5);
    h.visit(5);
    assert.equal(h.back(), 1);
    h.visit(1);
    assert.equal(h.forward(), 5);
    h.visit(5);
    h.visit(7);
    assert.equal(h.forward(), null, 'a new visit drops the forward history');
    assert.equal(h.back(), 5);
  });
});
