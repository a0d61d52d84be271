/**
 * Find's marks in the transcript: each match wrapped in a `<mark>` built with the DOM (trace text stays text),
 * bounded per page.
 */
import { el } from '../dom';

/** Marks per page at most: marking is for reading; a match in every line of a huge page is not read. */
const MAX_MARKS = 500;

/**
 * Wraps each match of `re` in the text of `root` in a `<mark>` (text nodes only: no markup is parsed). With
 * `keep`, the marks already there stay and only text outside them is searched.
 */
export function markMatches(root: HTMLElement, re: RegExp | null, keep = false): void {
  if (!keep) {
    for (const m of root.querySelectorAll('mark.transcript-match')) m.replaceWith(...m.childNodes);
    root.normalize();
  }
  if (!re) return;
  const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (!(n.parentElement?.classList.contains('transcript-match'))) texts.push(n as Text);
  let room = MAX_MARKS - (keep ? root.querySelectorAll('mark.transcript-match').length : 0);
  for (const t of texts) {
    if (room <= 0) break;
    room -= markText(t, global, room);
  }
}

function markText(t: Text, re: RegExp, room: number): number {
  const s = t.data;
  let at = 0;
  const parts: Node[] = [];
  for (const m of s.matchAll(re)) {
    if (m[0].length === 0 || parts.length >= 2 * room) break;
    if (m.index! > at) parts.push(document.createTextNode(s.slice(at, m.index)));
    parts.push(el('mark', { class: 'transcript-match', text: m[0] }));
    at = m.index! + m[0].length;
  }
  if (parts.length === 0) return 0;
  const marks = parts.filter((p) => p.nodeType === 1).length;
  if (at < s.length) parts.push(document.createTextNode(s.slice(at)));
  t.replaceWith(...parts);
  return marks;
}
