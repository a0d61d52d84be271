import { Buffer } from 'buffer';
import { isUtf8 } from './io/platform';
import { firstInvalidUtf8 } from './json/utf8';
import { LineSpan } from './lineIndexer';
import { EventDraft, Finding } from './model';
import { PARSE_CATALOG } from './catalog/genericCatalog';

/** Largest time a JavaScript Date can hold (ECMAScript §21.4.1.22): ±8.64e15 ms around the epoch. */
export const MAX_TIME_MS = 8.64e15;

/** The byte findings of a line that has none: one frozen list that every such line shares. */
export const NO_BYTE_FINDINGS: readonly Finding[] = Object.freeze([]);

/**
 * What the bytes of one line show beyond its JSON: invalid UTF-8 (reported with its byte offset; the line is still
 * read, with U+FFFD in place of the bad bytes) and a lone CR as its line break (a break for VS Code and for us,
 * but not for readers that split on `\n` only). `utf8`: the bytes are known to be valid UTF-8 (scanLines checked
 * their chunk). Most lines have nothing: they share one empty, frozen list.
 */
export function lineByteFindings(span: LineSpan, bytes: Buffer | null, utf8 = false): readonly Finding[] {
  if (span.cr !== true && (bytes === null || utf8 || isUtf8(bytes))) return NO_BYTE_FINDINGS;
  const out: Finding[] = [];
  if (bytes !== null) {
    const bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
      const shown = [...bytes.subarray(bad, bad + 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
      out.push({ rule: 'parse/invalid-utf8', severity: PARSE_CATALOG.severityOf('parse/invalid-utf8'), line: span.line,
        message: `Line has invalid UTF-8 at byte ${bad} of the line (file offset ${span.offset + bad}: ${shown}); those bytes were read as U+FFFD.` });
    }
  }
  if (span.cr) {
    out.push({ rule: 'parse/lone-cr', severity: PARSE_CATALOG.severityOf('parse/lone-cr'), line: span.line,
      message: 'Line ends with a carriage return (CR) without a newline; VS Code and this viewer count it as a line break, readers that split on newlines do not.' });
  }
  return out;
}

/**
 * Keeps an event's time only when a Date can represent it: a larger number (one duplicated digit in a
 * millisecond field is enough) would make every date formatting throw. The event keeps its raw value in its
 * line; the finding says why its time is unknown.
 */
export function boundedTime(draft: EventDraft, line: number): Finding | null {
  const t = draft.time;
  if (typeof t !== 'number' || Math.abs(t) <= MAX_TIME_MS || Number.isNaN(t)) return null;
  draft.time = null;
  return { rule: 'parse/time-out-of-range', severity: PARSE_CATALOG.severityOf('parse/time-out-of-range'), line, message: `Timestamp ${t} ms is outside the range a date can hold (±8.64e15 ms, years -271821 to 275760); the event has no time.` };
}
