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
 * their chunk), and NUL bytes: no writer writes them, a crash leaves them (a zeroed block), so each line they
 * touch is flagged at its line as damage. Most lines have nothing: they share one empty, frozen list.
 */
export function lineByteFindings(span: LineSpan, bytes: Buffer | null, utf8 = false): readonly Finding[] {
  const nul = bytes === null ? -1 : bytes.indexOf(0);
  if (nul < 0 && span.cr !== true && (bytes === null || utf8 || isUtf8(bytes))) return NO_BYTE_FINDINGS;
  const out: Finding[] = [];
  if (nul >= 0) out.push(zeroedFinding(span, bytes!, nul));
  if (bytes !== null && !utf8 && !isUtf8(bytes)) {
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

/** The words of a zeroed-bytes finding at the end of the file, which {@link lostEnd} looks for. */
const LOST_END = 'the file lost its end';

/** True for the finding of a file whose end was zeroed by a crash (see {@link lineByteFindings}). */
export function lostEnd(f: Finding): boolean {
  return f.rule === 'parse/zeroed-bytes' && f.message.includes(LOST_END);
}

/**
 * The finding for a line that holds NUL bytes (`first`: the offset of the first in the line). It names the runs as
 * what they are, zeroed bytes a crash leaves; a last line without a newline that ends in them is a lost end of the
 * file (ext4 keeps a file's size after a crash and zeroes the blocks it had not written), not a write in progress.
 */
function zeroedFinding(span: LineSpan, bytes: Buffer, first: number): Finding {
  let zeroed = 0;
  let runs = 0;
  for (let i = first; i < bytes.length; i++) {
    if (bytes[i] !== 0) continue;
    zeroed++;
    if (i === first || bytes[i - 1] !== 0) runs++;
  }
  const count = `${zeroed} zeroed byte${zeroed === 1 ? '' : 's'} (NUL)`;
  const where = runs === 1 ? `at byte ${first} of the line (file offset ${span.offset + first})` : `in ${runs} runs from byte ${first} of the line (file offset ${span.offset + first})`;
  const message = !span.terminated && bytes[bytes.length - 1] === 0
    ? zeroed === bytes.length
      ? `The file ends in ${count}, as a crash leaves them: ${LOST_END} (no writer writes NUL bytes; this is not a write in progress).`
      : `The last line ends in zeroed bytes: ${count} ${where}, as a crash leaves them; ${LOST_END} (no writer writes NUL bytes; this is not a write in progress).`
    : zeroed === bytes.length
      ? `Line is ${count}, as a crash leaves them: what was written here is lost.`
      : `Line holds ${count} ${where}, as a crash leaves them: the bytes written there are lost.`;
  return { rule: 'parse/zeroed-bytes', severity: PARSE_CATALOG.severityOf('parse/zeroed-bytes'), line: span.line, message };
}
