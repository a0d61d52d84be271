import { FormatAdapter, SniffResult, SniffSample } from '../../format';
import { COPILOT_TYPES, isCopilotEvent, isCopilotResult, isStdoutOnly } from './copilotRecords';
import { CopilotEventsBuilder } from './eventsBuilder';

/**
 * A file is Copilot CLI's when most of its first values are its events (`{type: "<area>.<name>", data, id,
 * timestamp, parentId}`) and one names a type only Copilot writes. The stdout (`--output-format json`) holds
 * ephemeral events and ends with a `result` line; the session file starts with `session.start`.
 */
function sniffCopilot(sample: SniffSample): SniffResult {
  const values = sample.values;
  if (values.length === 0 || sample.document) return { confidence: 0, reason: 'no values' };
  const events = values.filter(isCopilotEvent);
  const own = events.filter((v) => COPILOT_TYPES.has(v.type as string)).length;
  if (own === 0 || (events.length + values.filter(isCopilotResult).length) * 2 <= values.length) {
    return { confidence: 0, reason: 'not GitHub Copilot CLI events' };
  }
  if (values.some(isStdoutOnly)) {
    return { confidence: 1, reason: 'GitHub Copilot CLI --output-format json: {type, data, id, parentId} events with ephemeral ones', dialect: 'output-json' };
  }
  return { confidence: 1, reason: 'GitHub Copilot CLI session events (session-state/<id>/events.jsonl): {type, data, id, parentId} from session.start', dialect: 'session-state' };
}

/** GitHub Copilot CLI: session files (`~/.copilot/session-state/<id>/events.jsonl`) and `--output-format json`. */
export const copilotCliAdapter: FormatAdapter = {
  name: 'copilot-cli',
  title: 'GitHub Copilot CLI',
  sniff: sniffCopilot,
  createBuilder: (source) => new CopilotEventsBuilder(source),
};
