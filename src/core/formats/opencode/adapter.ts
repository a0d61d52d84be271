import { FormatAdapter, SniffResult, SniffSample } from '../../format';
import { isExportDocument, isRunEvent } from './opencodeRecords';
import { OpencodeBuilder } from './sessionBuilder';

/**
 * An `opencode export` document (`{info: {id: "ses_…"}, messages: [{info, parts}]}`, one value, pretty-printed or on
 * one line), or the lines of `opencode run --format json` (`{type, timestamp, sessionID, part: {messageID, …}}`).
 * Neither has a fixed file name: detection is by content alone.
 */
function sniffOpencode(sample: SniffSample): SniffResult {
  const { values } = sample;
  if (values.length === 0) return { confidence: 0, reason: 'no values' };
  if (values.length === 1 && isExportDocument(values[0])) {
    return { confidence: 0.95, reason: 'opencode export: session info and its messages with their parts', dialect: 'export' };
  }
  const events = values.filter(isRunEvent);
  if (events.length * 2 > values.length && events.some((v) => v.type !== 'error')) {
    return { confidence: 0.95, reason: 'opencode run --format json: parts by sessionID and messageID', dialect: 'run-json' };
  }
  return { confidence: 0, reason: 'not an opencode export or run --format json stream' };
}

/** opencode: `opencode export <sessionID>` documents and `opencode run --format json` output. */
export const opencodeAdapter: FormatAdapter = {
  name: 'opencode',
  title: 'opencode',
  sniff: sniffOpencode,
  createBuilder: () => new OpencodeBuilder(),
};
