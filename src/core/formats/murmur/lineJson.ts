import { isObj } from '../common';
import { preview } from '../../json/jsonLine';
import { Finding } from '../../model';
import { MURMUR_CATALOG } from './ruleCatalog';
import { LineInput } from '../../rules/types';

/**
 * murmur/line-json. An unparseable line is a torn write (warning) when it is the last non-blank line, or when
 * the next non-blank line is shell_lost: PriorSessionTraceAppender prefixes its first write with "\n" when the
 * file did not end in a newline, which leaves the torn fragment as its own line in the middle (murmur.md §1.2).
 * Any other unparseable line, and any line that is JSON but not an object, is an error.
 */
export class LineJsonCheck {
  private pending: { line: number; text: string } | null = null;
  private readonly out: Finding[] = [];

  add(input: LineInput): void {
    if (input.blank) return;
    if (this.pending) this.settle(isObj(input.value) && input.value.event_type === 'shell_lost' ? 'shell_lost' : 'other');
    if (input.value === undefined) {
      this.pending = { line: input.line, text: input.text };
    } else if (!isObj(input.value)) {
      const kind = Array.isArray(input.value) ? 'an array' : input.value === null ? 'null' : `a ${typeof input.value}`;
      this.out.push(MURMUR_CATALOG.finding('murmur/line-json', input.line, `Line is ${kind}, expected one JSON object per line.`));
    }
  }

  finish(): Finding[] {
    if (this.pending) this.settle('end');
    return this.out;
  }

  private settle(next: 'shell_lost' | 'end' | 'other'): void {
    const p = this.pending!;
    this.pending = null;
    const start = preview(p.text);
    if (next === 'other') {
      this.out.push(MURMUR_CATALOG.finding('murmur/line-json', p.line,
        `Line is not valid JSON and is followed by another event, not by shell_lost, so it is not a torn tail (garbled or interleaved write?). Starts with: ${start}`));
    } else {
      const where = next === 'end' ? 'it is the last line' : 'the next line is shell_lost, appended after a crash';
      this.out.push(MURMUR_CATALOG.overridden('murmur/line-json', p.line,
        `Torn write: the line is not valid JSON and ${where}. The other events were read. Starts with: ${start}`));
    }
  }
}
