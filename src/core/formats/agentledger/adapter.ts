import { EventDraft, HashRef, IdMention } from '../../model';
import { collectHashRefs, collectMentions, isObj, label, parseDigest, short } from '../common';
import { describeEvent, payloadTokens, payloadTool } from './describe';
import { LedgerTreeBuilder } from './ledgerTree';
import { Dialect, dialectOf, effectivePayload, EVENT_ID, LedgerRow, rowOf, SPAN_ID } from './rows';
import { categoryOfType } from './vocab';
import { EventBuilder, FormatAdapter, FormatTotals, SniffSample } from '../../format';
import { jsonPreview } from '../../json/jsonPreview';

const DIALECT_TEXT: Record<Dialect, string> = {
  'python-event': 'AgentLedger Python evidence rows (events.jsonl)',
  'rust-event': 'AgentLedger Rust event records (FNV-1a payload hashes)',
  'ts-event': 'AgentLedger TypeScript runtime event rows (SHA-256 of payload_ref)',
  'python-span': 'AgentLedger Python span lines (trace.jsonl)',
  'ts-span': 'AgentLedger TypeScript runtime span lines (traceJSONL, SHA-256 of payload_ref)',
  'rust-span': 'AgentLedger Rust trace_jsonl span lines',
};

/** How sure one line makes us, by how much of the doc's signature it carries (§0, README detection table). */
function lineConfidence(v: unknown, dialect: Dialect): number {
  if (!isObj(v)) return 0;
  switch (dialect) {
    case 'python-event': {
      let c = 0.8;
      if (typeof v.event_id === 'string' && EVENT_ID.test(v.event_id)) c += 0.1;
      if ('causal_token' in v && 'state_version' in v) c += 0.05;
      if (typeof v.payload_hash === 'string' ? v.payload_hash.startsWith('sha256:') : v.payload_hash === null) c += 0.03;
      return c;
    }
    case 'rust-event':
      return typeof v.event_id === 'string' && EVENT_ID.test(v.event_id) ? 0.95 : 0.8;
    case 'ts-event':
      // `evt_` + 24 hex (randomBytes(12)) and the full row of the store's events table.
      return (typeof v.event_id === 'string' && /^evt_[0-9a-f]{24}$/.test(v.event_id) ? 0.9 : 0.8) + ('causal_token' in v && 'state_version' in v ? 0.06 : 0);
    case 'python-span':
    case 'ts-span':
      return typeof v.span_id === 'string' && SPAN_ID.test(v.span_id) ? 0.97 : 0.8;
    case 'rust-span':
      // Three keys in the writer's order is a strong signature; the span id pattern was checked already.
      return Object.keys(v).join(',') === 'trace_id,span_id,name' ? 0.92 : 0.85;
  }
}

/** Detects AgentLedger lines: the first line's shape decides, the rest of the sample must mostly agree. */
function sniff(sample: SniffSample) {
  const objects = sample.values.filter(isObj);
  if (sample.document || objects.length === 0) return { confidence: 0, reason: 'no JSON object lines' };
  const first = dialectOf(objects[0]);
  const matching = objects.filter((o) => dialectOf(o) !== null).length;
  if (!first) {
    return matching > objects.length / 2 ? { confidence: 0.6, reason: 'most lines are AgentLedger rows, the first is not' } : { confidence: 0, reason: 'not an AgentLedger line' };
  }
  let c = lineConfidence(objects[0], first) * (0.5 + (0.5 * matching) / objects.length);
  const expectedName = first.endsWith('span') ? 'trace.jsonl' : 'events.jsonl';
  if (sample.fileName === expectedName) c += 0.02;
  return { confidence: Math.min(1, c), reason: DIALECT_TEXT[first] };
}

const MENTION_FIELDS = ['approval_id', 'cost_id', 'lease_token', 'artifact_id', 'tool_call_id', 'ledger_id', 'source_run_id', 'step_id'] as const;

function hashRefsOf(row: LedgerRow, payload: unknown): HashRef[] {
  const span = row.dialect.endsWith('span');
  const out: HashRef[] = [];
  const add = (field: string, v: unknown) => {
    const d = typeof v === 'string' ? parseDigest(v, true) : null;
    if (d) out.push({ field, ...d });
  };
  add(span ? 'attributes.agentledger.payload_hash' : 'payload_hash', row.payloadHash);
  add(span ? 'attributes.agentledger.payload_ref' : 'payload_ref', row.payloadRef);
  if (payload !== undefined) for (const r of collectHashRefs(payload)) out.push({ ...r, field: `payload.${r.field}` });
  return out;
}

/** Ids repeat on every line of a run; one shared string per id keeps the event table small. */
class Interner {
  private readonly m = new Map<string, string>();
  get(s: string): string {
    let v = this.m.get(s);
    if (v === undefined && this.m.size < 100_000) this.m.set(s, (v = s));
    return v ?? s;
  }
}

/** Other ids the event names: its step, and approval, cost, lease, artifact ids in the payload. The run is the group. */
function mentionsOf(row: LedgerRow, payload: unknown, ids: Interner): IdMention[] {
  const out: IdMention[] = [];
  if (row.stepId) out.push({ field: row.dialect === 'python-span' || row.dialect === 'ts-span' ? 'attributes.agentledger.step_id' : 'step_id', id: ids.get(row.stepId) });
  if (isObj(payload)) for (const m of collectMentions(payload, MENTION_FIELDS)) if (m.id !== row.stepId) out.push({ field: `payload.${m.field}`, id: ids.get(m.id) });
  return out;
}

/** Running totals of what the runs record: model tokens, tool calls, costs by unit, failures. */
class LedgerTotals {
  private readonly t: Required<Pick<FormatTotals, 'inputTokens' | 'outputTokens' | 'toolCalls' | 'errors'>> = { inputTokens: 0, outputTokens: 0, toolCalls: 0, errors: 0 };
  private readonly extra: Record<string, number> = {};

  add(type: string, payload: unknown, error: boolean): void {
    if (error) this.t.errors++;
    if (type === 'tool_call_requested') this.t.toolCalls++;
    if (type === 'model_call_completed') {
      const tk = payloadTokens(payload);
      this.t.inputTokens += tk.input ?? 0;
      this.t.outputTokens += tk.output ?? 0;
      if (tk.total !== null) this.bump('totalTokens', tk.total);
    }
    if (type === 'cost_recorded' && isObj(payload) && typeof payload.amount === 'number') {
      const unit = payload.unit;
      if (unit === 'usd') this.bump('costUsd', payload.amount);
      else if (unit === 'token' && payload.category === 'model') this.bump('modelTokens', payload.amount);
      else if (unit === 'call') this.bump('costedToolCalls', payload.amount);
    }
  }

  private bump(k: string, v: number): void {
    this.extra[k] = (this.extra[k] ?? 0) + v;
  }

  get(): FormatTotals {
    return { ...this.t, ...this.extra };
  }
}

function draftOf(row: LedgerRow, tree: LedgerTreeBuilder, ids: Interner): { draft: EventDraft; commit: (i: number) => void; payload: unknown } {
  const type = row.type ?? 'record';
  const payload = effectivePayload(row);
  const p = isObj(payload) ? payload : {};
  const placement = tree.place(row, {
    tool: payloadTool(p),
    costCategory: typeof p.category === 'string' ? p.category : null,
    costName: typeof p.name === 'string' ? p.name : null,
  });
  const d = describeEvent(type, payload, placement.groupTool);
  const ownId = type === 'run_created' ? row.runId : type === 'step_created' ? row.stepId : null;
  const time = row.time !== null ? row.time * 1000 : null;
  const draft: EventDraft = {
    kind: type,
    category: categoryOfType(type),
    id: row.id,
    parentIndex: placement.parent,
    seq: row.seq,
    time,
    durationMs: row.endTime !== null && row.time !== null ? Math.max(0, (row.endTime - row.time) * 1000) : null,
    status: d.status,
    label: label(d.label, ownId),
    tokensIn: d.tokensIn,
    tokensOut: d.tokensOut,
    model: d.model,
    tool: d.tool,
    group: row.runId === null ? null : ids.get(row.runId),
    hashRefs: hashRefsOf(row, payload),
    mentions: mentionsOf(row, payload, ids),
    // The runtime schedules another attempt of the step (its lease expired, the agent failed retryably).
    ...(type === 'step_retry_scheduled' ? { usage: { retry: { attempt: typeof p.attempt === 'number' ? p.attempt + 1 : null } } } : {}),
  };
  return { draft, commit: placement.commit, payload };
}

/** A line of another shape inside an AgentLedger file: kept and shown, structure unknown. */
function foreignDraft(v: unknown): EventDraft {
  const o = isObj(v) ? v : {};
  const kind = typeof o.type === 'string' ? o.type : typeof o.event_type === 'string' ? o.event_type : typeof o.name === 'string' ? o.name : Array.isArray(v) ? 'array' : 'record';
  return { kind, category: 'other', status: 'warning', label: label(kind, short(jsonPreview(v, 60), 60)), seq: typeof o.seq === 'number' ? o.seq : null };
}

/**
 * AgentLedger (yaogdu/AgentLedger): Python `events.jsonl` evidence rows, Python `trace.jsonl` spans, Rust
 * `trace_jsonl` 3-key span lines and Rust event records in their §4.1 JSON form. The tree is derived (§5.5).
 */
export const agentledgerAdapter: FormatAdapter = {
  name: 'agentledger',
  title: 'AgentLedger',
  sniff,
  createBuilder(): EventBuilder {
    const tree = new LedgerTreeBuilder();
    const totals = new LedgerTotals();
    const ids = new Interner();
    return {
      add(rec, emit) {
        const row = rowOf(rec.value);
        if (!row) {
          emit(foreignDraft(rec.value));
          return;
        }
        const { draft, commit, payload } = draftOf(row, tree, ids);
        commit(emit(draft));
        totals.add(draft.kind, payload, draft.status === 'error');
      },
      totals: () => totals.get(),
    };
  },
};
