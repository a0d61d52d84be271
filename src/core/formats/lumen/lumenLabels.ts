import { formatDuration, isObj, label, num, obj, short, str } from '../common';

/**
 * The label of a lumen line that depends on that line alone; null for the kinds whose label shows what the
 * tree builder knows from other lines (run_start's run id, the durations of call_exit, cell_end and run_end).
 * The builder leaves those lines' labels to it (`EventDraft.lineLabel`): the table makes them again when a page is
 * shown, or once while reading where the line cannot be read again.
 */
export function lumenLineLabel(v: unknown): string | null {
  if (!isObj(v)) return null;
  const kind = str(v, 'kind') ?? 'record';
  const details = obj(v, 'details');
  switch (kind) {
    case 'run_start':
    case 'call_exit':
    case 'cell_end':
    case 'run_end':
      return null;
    case 'vm_step': {
      const ip = num(details, 'ip');
      return label(kind, str(details, 'opcode'), ip !== null && `ip ${ip}`);
    }
    case 'tool_call': {
      const message = str(v, 'message');
      return label(kind, str(v, 'tool_id'), formatDuration(num(v, 'latency_ms')), v.cached === true && 'cached', details?.success === false && 'failed', message && short(message, 60));
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
