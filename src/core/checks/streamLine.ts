import { Buffer } from 'buffer';
import type { LineInput } from '../rules/types';
import type { ParsedLine } from '../json/jsonLine';

/**
 * A line handed to the checks with the text and value the reading decoded and parsed, so each line is decoded
 * and parsed once.
 */
export class StreamLine implements LineInput {
  /**
   * `text`: the line's bytes as UTF-8 ('' when they were not kept: a line over the size limit). `utf8`: the bytes
   * are known to be valid UTF-8 (see LineInput).
   */
  constructor(readonly line: number, readonly text: string, private readonly parsed: ParsedLine, readonly bytes?: Buffer, readonly utf8 = false) {}
  get value(): unknown {
    return this.parsed.kind === 'value' ? this.parsed.value : undefined;
  }
  get blank(): boolean {
    return this.parsed.kind === 'blank';
  }
  get validJson(): boolean {
    return this.parsed.kind === 'value';
  }
}
