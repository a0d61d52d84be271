/** How a searched text appears inside a raw JSON line, which holds strings in their escaped form. */
import { asciiEscaped, jsonEscaped } from '../escapes';

/**
 * The lower-cased forms of a needle to look for in a lower-cased raw line: as written, JSON-escaped and
 * ASCII-escaped (`\u00e9` lower-cases to itself, so the escaped forms stay comparable).
 */
export function lineNeedles(needle: string): string[] {
  const n = needle.toLowerCase();
  return [...new Set([n, jsonEscaped(n), asciiEscaped(n)])];
}
