import { BuilderSource, Emit, EventBuilder, FormatAdapter, FormatTotals, SniffResult, SniffSample, SourceRecord } from '../../format';
import { isObj } from '../common';
import { ChatBuilder } from './chatBuilder';
import { isChatRecord, isQwenInit, isQwenSpecific, isQwenStreamMark, isStreamMessage } from './qwenRecords';
import { StreamBuilder } from './streamBuilder';

/**
 * Qwen Code's files are Claude-Code-like lines (a Claude Code sniff scores them up to 0.99): a file is Qwen's only
 * on what Claude Code never writes, and then it is certain (1).
 */
function sniffQwen(sample: SniffSample): SniffResult {
  // `-o json` is one array of stream messages: its elements are the values.
  const values = sample.values.length === 1 && Array.isArray(sample.values[0]) ? (sample.values[0] as unknown[]).slice(0, 40) : sample.values;
  if (values.length === 0) return { confidence: 0, reason: 'no values' };
  if (values.some(isQwenInit) && values.filter(isStreamMessage).length * 2 > values.length) {
    return { confidence: 1, reason: 'Qwen Code stream-json / json output: system/init with qwen_code_version', dialect: 'stream-json' };
  }
  // A stream whose init was cut off (a piped tail): Qwen's own message shapes vouch for it, above a Claude Code
  // stream sniff without its init (at most 0.83).
  const marks = values.filter(isQwenStreamMark).length;
  if (marks > 0 && values.filter(isStreamMessage).length * 2 > values.length) {
    return { confidence: 0.9, reason: 'Qwen Code stream-json without its system/init: assistant message ids are their line uuids, usage with total_tokens', dialect: 'stream-json' };
  }
  const records = values.filter(isChatRecord);
  const specific = records.filter(isQwenSpecific).length;
  if (specific > 0 && records.length * 2 > values.length) {
    return { confidence: 1, reason: 'Qwen Code chat recording: uuid/parentUuid lines with Gemini-style message parts', dialect: 'chat-recording' };
  }
  return { confidence: 0, reason: 'not a Qwen Code chat recording or stream' };
}

/** Picks the reader from the first record: a stream message (or json array element) or a recording line. */
class QwenBuilder implements EventBuilder {
  private inner: EventBuilder | null = null;

  constructor(private readonly source: BuilderSource) {}

  add(rec: SourceRecord, emit: Emit): void {
    // `-o json` on one line is one array of messages: each is a record of that line.
    if (Array.isArray(rec.value)) {
      for (const value of rec.value) this.add({ ...rec, value }, emit);
      return;
    }
    this.inner ??= isObj(rec.value) && isStreamMessage(rec.value) && !isChatRecord(rec.value) ? new StreamBuilder() : new ChatBuilder(this.source);
    this.inner.add(rec, emit);
  }

  finish(emit: Emit) {
    return this.inner?.finish?.(emit) ?? [];
  }

  totals(): FormatTotals {
    return this.inner?.totals?.() ?? {};
  }

  usageNotes(): string[] {
    return this.inner?.usageNotes?.() ?? [];
  }
}

/** Qwen Code: chat recordings (`~/.qwen/projects/<cwd>/chats/`), `-o stream-json` and `-o json`. */
export const qwenCodeAdapter: FormatAdapter = {
  name: 'qwen-code',
  title: 'Qwen Code',
  sniff: sniffQwen,
  createBuilder: (source) => new QwenBuilder(source),
};
