import { categoryFromKind, collectHashRefs, formatDuration, formatTokens, isObj, label, Obj, parseTime, short, statusFromWord } from '../common';
import { EventBuilder, FormatAdapter, FormatTotals } from '../../format';
import { emitOpenHandsRun, isOpenHandsRun, openHandsCause } from './openhands';
import { jsonPreview } from '../../json/jsonPreview';

/** Id fields tried in order, for any agent JSONL. */
export const GENERIC_ID_FIELDS = ['event_id', 'eventId', 'id', 'uuid', 'span_id', 'spanId', 'message_id', 'messageId'] as const;
/** Parent fields tried in order. */
export const GENERIC_PARENT_FIELDS = ['parent_id', 'parentId', 'parentUuid', 'parent_uuid', 'parent_span_id', 'parentSpanId', 'parent_event_id', 'parentEventId', 'parent'] as const;
/** Fields that hold ids or chain hashes, not references to content. */
const NOT_CONTENT: ReadonlySet<string> = new Set([...GENERIC_ID_FIELDS, ...GENERIC_PARENT_FIELDS, 'hash', 'prev_hash']);
const KIND_FIELDS = ['event_type', 'type', 'kind', 'event', 'name'] as const;
const TIME_FIELDS = ['timestamp', 'ts', 'time', 'created_at', 'createdAt', 'occurred_at_ms', 'start_time', 'startTime'] as const;

function firstString(o: Obj, fields: readonly string[]): string | null {
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string' && v.length > 0) return v;
    if (typeof v === 'number' && Number.isFinite(v) && f !== 'parent') return String(v);
  }
  return null;
}

/** Any JSONL: guesses id, parent, kind and time fields so every file still gets a tree. */
export const genericAdapter: FormatAdapter = {
  name: 'generic',
  title: 'Generic JSONL',
  sniff: () => ({ confidence: 0.1, reason: 'any JSON lines' }),
  createBuilder(): EventBuilder {
    // Only OpenHands runs carry totals of their own; other generic files count from their events.
    let runs: { toolCalls: number; inputTokens: number; outputTokens: number; tokens: boolean } | null = null;
    return {
      totals(): FormatTotals {
        if (!runs) return {};
        return { toolCalls: runs.toolCalls, ...(runs.tokens ? { inputTokens: runs.inputTokens, outputTokens: runs.outputTokens } : {}) };
      },
      add(rec, emit) {
        const v = rec.value;
        if (isOpenHandsRun(v)) {
          const r = emitOpenHandsRun(v, rec, emit);
          runs ??= { toolCalls: 0, inputTokens: 0, outputTokens: 0, tokens: false };
          runs.toolCalls += r.toolCalls;
          if (r.tokens) Object.assign(runs, { inputTokens: runs.inputTokens + r.tokens.input, outputTokens: runs.outputTokens + r.tokens.output, tokens: true });
          return;
        }
        if (!isObj(v)) {
          emit({ kind: Array.isArray(v) ? 'array' : typeof v, category: 'other', label: short(jsonPreview(v)) });
          return;
        }
        const kind = firstString(v, KIND_FIELDS) ?? 'record';
        const id = firstString(v, GENERIC_ID_FIELDS);
        const parentId = firstString(v, GENERIC_PARENT_FIELDS) ?? openHandsCause(v);
        let time: number | null = null;
        for (const f of TIME_FIELDS) if ((time = parseTime(v[f])) !== null) break;
        const statusWord = typeof v.status === 'string' ? v.status : typeof v.level === 'string' ? v.level : null;
        const status = statusFromWord(statusWord) ?? (v.error != null && v.error !== false ? 'error' : statusFromWord(kind) ?? 'ok');
        const duration = typeof v.duration_ms === 'number' ? v.duration_ms : typeof v.durationMs === 'number' ? v.durationMs : null;
        const tokensIn = typeof v.input_tokens === 'number' ? v.input_tokens : null;
        const tokensOut = typeof v.output_tokens === 'number' ? v.output_tokens : null;
        const name = typeof v.name === 'string' && v.name !== kind ? v.name : typeof v.tool === 'string' ? v.tool : null;
        emit({
          kind,
          category: categoryFromKind(kind),
          id,
          parentId,
          seq: typeof v.seq === 'number' ? v.seq : null,
          time,
          durationMs: duration,
          status,
          label: label(kind, name && short(name, 40), formatDuration(duration), formatTokens(tokensIn, tokensOut)),
          tokensIn,
          tokensOut,
          model: typeof v.model === 'string' ? v.model : null,
          group: typeof v.session_id === 'string' ? v.session_id : typeof v.run_id === 'string' ? v.run_id : typeof v.sessionId === 'string' ? v.sessionId : null,
          hashRefs: collectHashRefs(v, NOT_CONTENT),
        });
      },
    };
  },
};
