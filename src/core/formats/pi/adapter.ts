import { Emit, EventBuilder, FormatAdapter, FormatTotals, BuilderSource, SniffResult, SniffSample, SourceRecord } from '../../format';
import { isObj } from '../common';
import { isPiEntry, isPiHeader, isPiStreamEvent } from './piRecords';
import { SessionBuilder } from './sessionBuilder';
import { StreamBuilder } from './streamBuilder';

/**
 * A pi file is its `session` header (`{type: "session", id, timestamp, cwd}`) followed by session entries
 * (`{type, id, parentId, timestamp}` of pi's entry types) or by `--mode json` agent events (pi's event types, no
 * ids): most of the values after it must be the one or the other (then it is certain; 0.9 without the header).
 */
function sniffPi(sample: SniffSample): SniffResult {
  const values = sample.values;
  if (values.length === 0) return { confidence: 0, reason: 'no values' };
  const header = isPiHeader(values[0]);
  const rest = header ? values.slice(1) : values;
  const entries = rest.filter(isPiEntry).length;
  const events = rest.filter(isPiStreamEvent).length;
  const kinds = new Set(rest.filter(isPiStreamEvent).map((v) => (v as { type: string }).type));
  if (events > entries && events * 2 > rest.length && (header || kinds.size >= 2)) {
    return { confidence: header ? 1 : 0.9, reason: `pi --mode json output: ${header ? 'a session header, then ' : ''}agent events (agent_start, turn_start, message_*, tool_execution_*)`, dialect: 'mode-json' };
  }
  if (entries > events && entries * 2 > rest.length) {
    return { confidence: header ? 1 : 0.9, reason: `pi session file: ${header ? 'a session header, then ' : ''}entries {type, id, parentId, timestamp} forming a tree`, dialect: 'session' };
  }
  if (header && rest.length === 0) return { confidence: 0.9, reason: 'pi session header {type: "session", id, timestamp, cwd}', dialect: 'session' };
  return { confidence: 0, reason: 'not a pi session file or --mode json output' };
}

/**
 * Picks the reader from the first records: a session entry makes it a session file, an agent event `--mode json`
 * output (both start with the same header, which waits for the next record).
 */
class PiBuilder implements EventBuilder {
  private inner: EventBuilder | null = null;
  private readonly held: SourceRecord[] = [];

  constructor(private readonly source: BuilderSource) {}

  add(rec: SourceRecord, emit: Emit): void {
    if (!this.inner) {
      if (this.held.length === 0 && isPiHeader(rec.value)) {
        this.held.push(rec);
        return;
      }
      const stream = isObj(rec.value) && isPiStreamEvent(rec.value);
      this.inner = stream ? new StreamBuilder(this.source) : new SessionBuilder();
      for (const h of this.held.splice(0)) this.inner.add(h, (d, r) => emit(d, r ?? h));
    }
    this.inner.add(rec, emit);
  }

  finish(emit: Emit): [] {
    if (!this.inner) {
      // A header alone: a session that has no entry yet.
      this.inner = new SessionBuilder();
      for (const h of this.held.splice(0)) this.inner.add(h, (d, r) => emit(d, r ?? h));
    }
    this.inner.finish?.(emit);
    return [];
  }

  totals(): FormatTotals {
    return this.inner?.totals?.() ?? {};
  }
}

/** pi (`@mariozechner/pi-coding-agent`): session files (`~/.pi/agent/sessions/`) and `--mode json` output. */
export const piAdapter: FormatAdapter = {
  name: 'pi',
  title: 'pi coding agent',
  sniff: sniffPi,
  createBuilder: (source) => new PiBuilder(source),
};
