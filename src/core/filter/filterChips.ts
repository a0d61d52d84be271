/**
 * The filter box's chips: the top-level "and" parts of an expression, each with its place in the text so a
 * chip's × removes exactly that part. A chain joined by "or" stays one chip; `-x` and `not x` stay with x.
 */

/** One chip: the text it shows and the range of the expression it stands for. */
export interface FilterChip {
  text: string;
  start: number;
  end: number;
}

/** Units at depth 0: words (with their quoted values) and parenthesized groups. */
function units(src: string): { start: number; end: number; word: string }[] {
  const out: { start: number; end: number; word: string }[] = [];
  let i = 0;
  while (i < src.length) {
    if (/\s/.test(src[i])) {
      i++;
      continue;
    }
    const start = i;
    let depth = 0;
    let quoted = false;
    for (; i < src.length; i++) {
      const c = src[i];
      if (quoted) {
        if (c === '\\') i++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === '(') depth++;
      else if (c === ')') depth = Math.max(0, depth - 1);
      else if (depth === 0 && /\s/.test(c)) break;
    }
    out.push({ start, end: i, word: src.slice(start, i).toLowerCase() });
  }
  return out;
}

/** The chips of `source` (empty for a blank one). Works on text that does not parse, too. */
export function filterChips(source: string): FilterChip[] {
  const us = units(source);
  const chips: FilterChip[] = [];
  let cur: { start: number; end: number } | null = null;
  let joinNext = false;
  for (const u of us) {
    if (u.word === 'and') continue;
    if (u.word === 'or' || u.word === 'not') {
      if (u.word === 'or' && cur) joinNext = true;
      else if (!joinNext) {
        if (cur) chips.push({ text: source.slice(cur.start, cur.end), ...cur });
        cur = { start: u.start, end: u.end };
        joinNext = true;
      } else if (cur) cur.end = u.end;
      continue;
    }
    if (cur && joinNext) cur.end = u.end;
    else {
      if (cur) chips.push({ text: source.slice(cur.start, cur.end), ...cur });
      cur = { start: u.start, end: u.end };
    }
    joinNext = false;
  }
  if (cur) chips.push({ text: source.slice(cur.start, cur.end), ...cur });
  return chips;
}

/** The expression without chip `k`. */
export function removeChip(source: string, chip: FilterChip): string {
  return (source.slice(0, chip.start) + ' ' + source.slice(chip.end)).replace(/\s+/g, ' ').trim();
}
