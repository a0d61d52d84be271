import type { LabelFacts } from '../../lineLabels';
import { formatDuration, isObj, label, num, obj, short, str, toolResultLabel } from '../common';

/**
 * The label of a lumen line, from the line and what the tree builder put in the event's columns: the run id (its
 * group) on run_start, the duration of the frame a call_exit, cell_end or run_end closes, and run_end's status
 * (an error when the run failed). The builder leaves every label to it (`EventDraft.lineLabel`): the table makes
 * them again when a page is shown, or once while reading where the line cannot be read again. The builder never
 * changes an event's duration or status after adding it, so a label made again is the one it would have made.
 */
export function lumenLineLabel(v: unknown, facts?: LabelFacts): string | null {
  if (!isObj(v)) return null;
  const kind = str(v, 'kind') ?? 'record';
  const details = obj(v, 'details');
  switch (kind) {
    case 'run_start': {
      const doc = str(v, 'doc_hash');
      return label(kind, facts?.group, doc && `doc ${short(doc.replace(/^sha256:/, ''), 13)}`);
    }
    case 'call_exit': {
      const result = str(details, 'result_type');
      return label(kind, str(v, 'cell'), result && `→ ${result}`, formatDuration(facts?.durationMs));
    }
    case 'cell_end':
      return label(kind, str(v, 'cell'), formatDuration(facts?.durationMs));
    case 'run_end':
      return label(kind, facts?.status === 'error' && 'failed', formatDuration(facts?.durationMs));
    case 'vm_step': {
      const ip = num(details, 'ip');
      return label(kind, str(details, 'opcode'), ip !== null && `ip ${ip}`);
    }
    case 'tool_call': {
      // Worded as every agent's tool rows are (common.ts): `fs.read → ok, 3 ms`, `fs.read → error, 1 ms: file not found`.
      const failed = details?.success === false;
      return label(toolResultLabel({ tool: str(v, 'tool_id'), durationMs: num(v, 'latency_ms'), failed, error: str(v, 'message') }), v.cached === true && '(cached)', !failed && str(v, 'message') && short(str(v, 'message')!, 60));
    }
    case 'schema_validate': {
      const valid = details?.valid;
      return label(kind, str(details, 'schema'), valid === true ? 'valid' : valid === false ? 'invalid' : null);
    }
    case 'error': {
      const message = str(v, 'message');
      return label(kind, message && short(message.split('\n')[0], 80));
    }
    default:
      // cell_start, call_enter and kinds newer than the spec.
      return label(kind, str(v, 'cell'));
  }
}
