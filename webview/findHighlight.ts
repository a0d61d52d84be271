/**
 * Marks find's matches in the detail pane (the Content tab's messages and blob previews, the JSON and Raw
 * tabs): text nodes are split and the match wrapped in a `<mark>` built with the DOM, so trace text stays
 * text. The first mark is scrolled into view, so a match deep in a blob is where the reader looks.
 */

/** How find reads its query (as the find bar sends it). */
export interface FindQuery {
  query: string;
  caseSensitive: boolean;
  regex: boolean;
}

const MAX_MARKS = 500;

/** The query as a global RegExp (null when empty or not a valid regex), as find itself reads it. */
export function findMatcher(q: FindQuery): RegExp | null {
  if (q.query === '') return null;
  try {
    return new RegExp(q.regex ? q.query : q.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), q.caseSensitive ? 'g' : 'gi');
  } catch {
    return null;
  }
}

/** Removes earlier marks under `root` (joining the text back). */
export function clearHighlights(root: Element): void {
  for (const m of [...root.querySelectorAll('mark.find-match')]) {
    const parent = m.parentNode!;
    parent.replaceChild(document.createTextNode(m.textContent ?? ''), m);
    parent.normalize();
  }
}

/** Marks every match of `q` in the text under `root`; returns how many were marked. */
export function highlightMatches(root: Element, q: FindQuery): number {
  clearHighlights(root);
  const re = findMatcher(q);
  if (!re) return 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  let count = 0;
  for (const node of nodes) {
    if (count >= MAX_MARKS) break;
    count += markIn(node, re, MAX_MARKS - count);
  }
  root.querySelector('mark.find-match')?.scrollIntoView({ block: 'center' });
  return count;
}

function markIn(node: Text, re: RegExp, room: number): number {
  const text = node.data;
  re.lastIndex = 0;
  const parts: Node[] = [];
  let at = 0;
  let count = 0;
  for (let m = re.exec(text); m && count < room; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (m.index > at) parts.push(document.createTextNode(text.slice(at, m.index)));
    const mark = document.createElement('mark');
    mark.className = 'find-match';
    mark.textContent = m[0];
    parts.push(mark);
    at = m.index + m[0].length;
    count++;
  }
  if (count === 0) return 0;
  if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
  node.replaceWith(...parts);
  return count;
}
