/** One JSON value of a text that holds several, with where it starts. */
export interface ConcatenatedValue {
  value: unknown;
  /** Character offset of the value's first character. */
  start: number;
  end: number;
}

/**
 * Splits a text made of JSON objects or arrays written one after another, each possibly over many lines, as the
 * Python SDK's ConsoleSpanExporter prints spans (`json.dumps(span, indent=4)` plus a newline each). Returns null
 * unless the whole text is two or more such values separated only by whitespace and every one parses, so a broken
 * file still goes to the line reader, which reports each bad line. One pass, no recursion: brackets are counted
 * outside strings.
 */
export function splitConcatenatedJson(text: string): ConcatenatedValue[] | null {
  const out: ConcatenatedValue[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
    if (i >= n) break;
    if (text[i] !== '{' && text[i] !== '[') return null;
    const end = valueEnd(text, i);
    if (end < 0) return null;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, end));
    } catch {
      return null;
    }
    out.push({ value, start: i, end });
    i = end;
  }
  return out.length >= 2 ? out : null;
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
