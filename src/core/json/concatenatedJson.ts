/** One JSON value of a text that holds several, with where it starts. */
export interface ConcatenatedValue {
  value: unknown;
  /** Character offset of the value's first character. */
  start: number;
  end: number;
}

/** A stretch of a concatenated text that is not a JSON value: cut (a torn tail) or damaged. */
export interface ConcatenatedGap {
  start: number;
  /** True when the bad value runs to the end of the text without closing. */
  torn: boolean;
}

/** The values of a concatenated text, and the stretches that did not parse. */
export interface ConcatenatedJson {
  values: ConcatenatedValue[];
  gaps: ConcatenatedGap[];
}

/**
 * Splits a text made of JSON objects or arrays written one after another, each possibly over many lines, as the
 * Python SDK's ConsoleSpanExporter prints spans (`json.dumps(span, indent=4)` plus a newline each). A value that
 * does not parse becomes a gap, and reading goes on at the next line that starts with `{` or `[`, so one damaged
 * span costs one finding, not one per line. Returns null unless at least two values parse, they outnumber the gaps
 * and each spans several lines: JSON Lines with a damaged first line are left to the line reader, which reports
 * that one line. One pass, no recursion: brackets are counted outside strings.
 */
export function splitConcatenatedJson(text: string): ConcatenatedJson | null {
  const values: ConcatenatedValue[] = [];
  const gaps: ConcatenatedGap[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
    if (i >= n) break;
    const end = text[i] === '{' || text[i] === '[' ? valueEnd(text, i) : -1;
    const value = end < 0 ? undefined : tryParse(text.slice(i, end));
    if (value !== undefined) {
      const nl = text.indexOf('\n', i);
      if (nl < 0 || nl >= end) return null;
      values.push({ value: value.v, start: i, end });
      i = end;
      continue;
    }
    const next = nextValueStart(text, i + 1);
    gaps.push({ start: i, torn: next < 0 && end < 0 });
    if (next < 0) break;
    i = next;
  }
  return values.length >= 2 && values.length > gaps.length ? { values, gaps } : null;
}

function tryParse(s: string): { v: unknown } | undefined {
  try {
    return { v: JSON.parse(s) };
  } catch {
    return undefined;
  }
}

/** The next offset after `from` where a line starts with `{` or `[`, or -1. */
function nextValueStart(text: string, from: number): number {
  for (let i = text.indexOf('\n', from); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (text[i + 1] === '{' || text[i + 1] === '[') return i + 1;
  }
  return -1;
}

/** The offset just past the object or array starting at `start`, or -1 when it never closes. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
    else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
