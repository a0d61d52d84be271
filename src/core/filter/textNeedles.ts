/** How a searched text appears inside a raw JSON line, which holds strings in their escaped form. */

/** The text as it appears inside a JSON string literal. */
export function jsonEscaped(q: string): string {
  return JSON.stringify(q).slice(1, -1);
}

/** The text as an ASCII-only JSON writer (Python's json.dumps) escapes it. */
export function asciiEscaped(q: string): string {
  return jsonEscaped(q).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/**
 * The lower-cased forms of a needle to look for in a lower-cased raw line: as written, JSON-escaped and
 * ASCII-escaped (`\u00e9` lower-cases to itself, so the escaped forms stay comparable).
 */
export function lineNeedles(needle: string): string[] {
  const n = needle.toLowerCase();
  return [...new Set([n, jsonEscaped(n), asciiEscaped(n)])];
}
