import { murmurUsage } from './usage';
import { EventDraft } from '../../model';
import { isObj, num, Obj, short, str } from '../common';
import { MURMUR_EVENT_ID, murmurEventType, murmurHashRefs, murmurMentions } from './catalog';
import { murmurLabelOf, murmurStatus } from './labels';
import type { LabelFacts } from '../../derivedLabels';
import { EventBuilder, FormatAdapter, FormatTotals, SniffResult, SniffSample } from '../../format';
import { jsonPreview } from '../../json/jsonPreview';

type Match = 'strong' | 'weak' | null;

/**
 * How well one value matches the murmur envelope (murmur.md §2.0, formats/README.md): `event_type` string,
 * `evt_` + 32 hex id, a `parent_id` key (only shell_lost may omit it), integer ms `timestamp`. `ses_` session
 * ids make it strong; upstream tests use other session ids, so those still count as weak. AgentLedger's Rust
 * records share `event_type` and `evt_` but have 16-hex ids, float-second timestamps and no `parent_id`.
 */
function matchRecord(v: unknown): Match {
  if (!isObj(v) || typeof v.event_type !== 'string') return null;
  if (typeof v.event_id !== 'string' || !MURMUR_EVENT_ID.test(v.event_id)) return null;
  if (!('parent_id' in v) && v.event_type !== 'shell_lost') return null;
  if (!Number.isInteger(v.timestamp) || (v.timestamp as number) <= 0 || 'payload_hash' in v) return null;
  if (v.parent_id !== undefined && v.parent_id !== null && typeof v.parent_id !== 'string') return null;
  return typeof v.session_id === 'string' && v.session_id.startsWith('ses_') ? 'strong' : typeof v.session_id === 'string' ? 'weak' : null;
}

/** Content-based detection of a murmur `trace.jsonl`; the name `trace.jsonl` only adds 0.02 to break ties. */
export function sniffMurmur(sample: SniffSample): SniffResult {
  const objects = sample.values.filter(isObj);
  let strong = 0;
  let weak = 0;
  let known = 0;
  for (const v of objects) {
    const m = matchRecord(v);
    if (m === 'strong') strong++;
    else if (m === 'weak') weak++;
    if (m && murmurEventType(String(v.event_type))) known++;
  }
  if (strong + weak === 0) return { confidence: 0, reason: 'no murmur event envelope (evt_ + 32 hex id, parent_id, ms timestamp)' };
  const matched = strong + weak;
  let confidence = (strong > 0 ? 0.9 : 0.65) * (0.6 + (0.4 * matched) / objects.length);
  if (objects[0]?.event_type === 'session_start' && matchRecord(objects[0])) confidence += 0.05;
  if (known === matched) confidence += 0.03;
  if (sample.fileName === 'trace.jsonl') confidence += 0.02;
  return {
    confidence: Math.min(1, confidence),
    reason: `${matched}/${objects.length} records carry murmur's envelope (evt_ + 32 hex event_id, parent_id, ms timestamp${strong > 0 ? ', ses_ session_id' : ''})`,
  };
}

/** Per-segment counters for totals(): session_end totals win, counted events fill in for unfinished segments. */
class MurmurTotals {
  private readonly done = { inputTokens: 0, outputTokens: 0, toolCalls: 0, turns: 0, shellCalls: 0 };
  private open = { inputTokens: 0, outputTokens: 0, toolCalls: 0, turns: 0, shellCalls: 0 };

  add(type: string, o: Obj): void {
    if (type === 'inference') {
      // Uncounted failed inferences write no token keys, so absent counts as 0 (§7.5).
      this.open.turns++;
      this.open.inputTokens += num(o, 'input_tokens') ?? 0;
      this.open.outputTokens += num(o, 'output_tokens') ?? 0;
    } else if (type === 'tool_call') this.open.toolCalls++;
    else if (type === 'shell' || type === 'shell_detached') this.open.shellCalls++;
    else if (type === 'session_end') {
      this.done.turns += num(o, 'total_turns') ?? this.open.turns;
      this.done.inputTokens += num(o, 'total_input_tokens') ?? this.open.inputTokens;
      this.done.outputTokens += num(o, 'total_output_tokens') ?? this.open.outputTokens;
      this.done.toolCalls += num(o, 'total_tool_calls') ?? this.open.toolCalls;
      this.done.shellCalls += num(o, 'total_shell_calls') ?? this.open.shellCalls;
      this.open = { inputTokens: 0, outputTokens: 0, toolCalls: 0, turns: 0, shellCalls: 0 };
    }
  }

  totals(): FormatTotals {
    const d = this.done;
    const o = this.open;
    return { inputTokens: d.inputTokens + o.inputTokens, outputTokens: d.outputTokens + o.outputTokens, toolCalls: d.toolCalls + o.toolCalls, turns: d.turns + o.turns, shellCalls: d.shellCalls + o.shellCalls };
  }
}

const TOOL_FIELD: Record<string, string> = {
  tool_call: 'tool_name', tool_input_refused: 'tool_name', skill_call: 'skill_name', shell: 'binary', shell_detached: 'binary',
  shell_detach_unrecorded: 'binary', shell_completed: 'binary', shell_abandoned: 'binary', shell_lost: 'binary',
};

/**
 * Turns one murmur line into its event draft; `sessionModel` is the model of the latest session_start. The label
 * is left to the line (`murmurLabel`, from the line and the event's model column): made again for the rows shown.
 */
export function murmurDraft(o: Obj, sessionModel: string | null): EventDraft {
  const type = str(o, 'event_type') ?? '(no event_type)';
  const info = murmurEventType(type);
  const isInference = type === 'inference';
  const parent = o.parent_id;
  return {
    kind: type,
    category: info?.category ?? 'other',
    id: str(o, 'event_id'),
    parentId: typeof parent === 'string' ? parent : null,
    time: Number.isFinite(o.timestamp) ? (o.timestamp as number) : null,
    durationMs: num(o, 'duration_ms') ?? num(o, 'running_ms'),
    status: murmurStatus(type, o),
    label: '',
    lineLabel: murmurLabel,
    tokensIn: isInference ? num(o, 'input_tokens') : null,
    tokensOut: isInference ? num(o, 'output_tokens') : null,
    usage: murmurUsage(type, o),
    model: isInference ? str(o, 'model') ?? sessionModel : type === 'session_start' || type === 'harness_session' ? str(o, 'model') : null,
    tool: TOOL_FIELD[type] ? str(o, TOOL_FIELD[type]) : null,
    group: str(o, 'session_id'),
    hashRefs: murmurHashRefs(o, type),
    mentions: murmurMentions(o),
  };
}

/**
 * A murmur event's label made again from its line: every view reads only its own line, besides the session's
 * model, which an inference event keeps in its model column (other kinds' labels do not use it).
 */
export function murmurLabel(value: unknown, facts: LabelFacts): string | null {
  if (!isObj(value)) return null;
  const type = str(value, 'event_type') ?? '(no event_type)';
  return murmurLabelOf(type, value, type === 'session_start' ? str(value, 'model') : facts.model ?? null);
}

/** murmur `trace.jsonl` (capsule runtime): explicit parent_id tree session → task → turn → tool/hook events. */
export const murmurAdapter: FormatAdapter = {
  name: 'murmur',
  title: 'murmur trace.jsonl',
  sniff: sniffMurmur,
  createBuilder(): EventBuilder {
    let sessionModel: string | null = null;
    const totals = new MurmurTotals();
    return {
      add(rec, emit) {
        const o = rec.value;
        if (!isObj(o)) {
          // Every murmur line is an object; keep the odd line visible rather than dropping it.
          emit({ kind: 'not-an-object', category: 'error', status: 'error', label: `not a murmur event: ${short(jsonPreview(o))}` });
          return;
        }
        if (o.event_type === 'session_start') sessionModel = str(o, 'model') ?? sessionModel;
        emit(murmurDraft(o, sessionModel));
        if (typeof o.event_type === 'string') totals.add(o.event_type, o);
      },
      totals: () => totals.totals(),
    };
  },
};
