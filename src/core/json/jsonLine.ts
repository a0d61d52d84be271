import { Buffer } from 'buffer';
import { Finding } from '../model';
import { LineSpan } from '../lineIndexer';
import { PARSE_CATALOG } from '../catalog/genericCatalog';

/** Result of parsing one line. */
export type ParsedLine =
  | { kind: 'value'; value: unknown }
  | { kind: 'blank' }
  | { kind: 'malformed'; finding: Finding };

/** True when a line holds only spaces and tabs (CR is already stripped). */
function isBlank(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 32 && b !== 9 && b !== 13) return false;
  }
  return true;
}

/** Decodes and parses one JSONL line, turning every failure into a finding at that line. */
export function parseLine(span: LineSpan, bytes: Buffer | null, maxLineBytes: number): ParsedLine {
  return parseDecodedLine(span, bytes, bytes === null ? '' : bytes.toString('utf8'), maxLineBytes);
}

/** {@link parseLine} of a line its caller has decoded already (`text`: the bytes as UTF-8, '' when they are null). */
export function parseDecodedLine(span: LineSpan, bytes: Buffer | null, text: string, maxLineBytes: number): ParsedLine {
  if (bytes === null) {
    return {
      kind: 'malformed',
      finding: {
        rule: 'parse/line-too-long',
        severity: PARSE_CATALOG.severityOf('parse/line-too-long'),
        line: span.line,
        message: `Line is ${span.length} bytes, over the limit of ${maxLineBytes} bytes; it was indexed but not parsed.`,
      },
    };
  }
  if (isBlank(bytes)) return { kind: 'blank' };
  try {
    return { kind: 'value', value: JSON.parse(text) };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    // A last line that holds NUL bytes is not a write in progress: no writer writes them, a crash zeroed it.
    const torn = !span.terminated && bytes.indexOf(0) < 0;
    return {
      kind: 'malformed',
      finding: {
        rule: torn ? 'parse/torn-tail' : 'parse/invalid-json',
        severity: PARSE_CATALOG.severityOf(torn ? 'parse/torn-tail' : 'parse/invalid-json'),
        line: span.line,
        message: torn
          ? `The last line has no newline and is not complete JSON (a write still in progress or cut off): ${detail}`
          : `Line is not valid JSON (torn or interleaved write?): ${detail}. Starts with: ${preview(text)}`,
      },
    };
  }
}

/** The first characters of a line, safe to print on one line. */
export function preview(text: string, max = 60): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return JSON.stringify(flat.length > max ? flat.slice(0, max) + '…' : flat);
}
