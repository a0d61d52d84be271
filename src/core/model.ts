export { FORMAT_NAMES } from './formatNames';
export type { FormatName } from './formatNames';
import type { FormatName } from './formatNames';
import type { UsageDraft } from './usageTypes';
import type { LabelDeriver } from './lineLabels';

/** Status of one event as a person scanning the tree would see it. */
export type EventStatus = 'ok' | 'warning' | 'error';
export const EVENT_STATUSES: readonly EventStatus[] = ['ok', 'warning', 'error'];

/** A coarse role of an event, used for icons, totals and filters across formats. */
export type EventCategory =
  | 'session'
  | 'run'
  | 'task'
  | 'turn'
  | 'inference'
  | 'tool'
  | 'approval'
  | 'policy'
  | 'message'
  | 'span'
  | 'error'
  | 'other';
export const EVENT_CATEGORIES: readonly EventCategory[] = [
  'session', 'run', 'task', 'turn', 'inference', 'tool', 'approval', 'policy', 'message', 'span', 'error', 'other',
];

/** Digest algorithms the formats use. agentledger's Rust writer labels 64-bit FNV-1a digests "sha256". */
export type DigestAlgorithm = 'sha256' | 'fnv1a64';

/** A content hash an event holds, pointing at a blob or at hashed content. */
export interface HashRef {
  /** JSON path of the field inside the event, e.g. `message_shas[2]`. */
  field: string;
  /** Lowercase hex digest. */
  digest: string;
  algorithm: DigestAlgorithm;
  /** The value as written (`blob://sha256/…`, `sha256:…` or bare hex). */
  raw: string;
}

/** An id an event mentions in a field other than its own id (call ids, turn ids, run ids…). */
export interface IdMention {
  field: string;
  id: string;
}

/** Severity of a finding. */
export type Severity = 'error' | 'warning' | 'info';

/** One problem or fact about a trace, tied to a 1-based line. Shared by parsing, verification and checks. */
export interface Finding {
  /** Stable rule id, `<area>/<rule>`. */
  rule: string;
  severity: Severity;
  line: number;
  seq?: number;
  eventId?: string;
  message: string;
}

/** Where findings are handed as they are made: an array, or a sink that keeps them otherwise (findingLog.ts). */
export interface FindingSink {
  push(f: Finding): void;
}

/** What a format adapter produces for one event; the model fills in place and tree position. */
export interface EventDraft {
  kind: string;
  category?: EventCategory;
  /** The event's own id in the file's id space, when it has one. */
  id?: string | null;
  /** Explicit parent id, resolved against other events' ids. */
  parentId?: string | null;
  /** Structural parent as an event index (derived formats); wins over `parentId`. */
  parentIndex?: number | null;
  /**
   * Where the event is shown, when the format nests its events otherwise than by their recorded links: the index of
   * an earlier event, or -1 for a root of the tree (a later index counts as -1). The recorded link (`parentId`, or
   * `parentIndex`) stays the event's fact: it is resolved, checked and reported (`tree --json` parentId, the tree
   * findings, the summary's roots) as without it; the tree, its depths and the rows nest by this one. Claude Code
   * nests a session as turn → model step → tool call → result, while each line's parentUuid names the line before.
   */
  displayParent?: number;
  seq?: number | null;
  /** Milliseconds since the Unix epoch. */
  time?: number | null;
  durationMs?: number | null;
  status?: EventStatus;
  /** One line a person wants to read, e.g. `tool_call http.get 12 ms`. */
  label: string;
  /**
   * Set when the builder left `label` empty because the label is this function of the value of the record the
   * draft is emitted with (the format's `deriveLabel`): the emitter makes it only when the sink will not make it
   * again from the line when asked.
   */
  lineLabel?: LabelDeriver;
  tokensIn?: number | null;
  tokensOut?: number | null;
  /** Cache and reasoning tokens, recorded cost, and whether the numbers are the event's own (core/usage). */
  usage?: UsageDraft;
  model?: string | null;
  tool?: string | null;
  /** Run or session the event belongs to. */
  group?: string | null;
  hashRefs?: HashRef[];
  mentions?: IdMention[];
}

/** Where an event came from in the file. */
export interface EventPlace {
  line: number;
  offset: number;
  length: number;
}

/** A fully placed event as handed to views and checks (materialized from the compact table on demand). */
export interface TraceEvent extends EventPlace {
  index: number;
  kind: string;
  category: EventCategory;
  id: string | null;
  parentId: string | null;
  /** Index of the parent event in the tree (its display parent when it has one), -1 for roots and orphans. */
  parent: number;
  seq: number | null;
  time: number | null;
  durationMs: number | null;
  status: EventStatus;
  label: string;
  tokensIn: number | null;
  tokensOut: number | null;
  model: string | null;
  tool: string | null;
  group: string | null;
  hashRefs: HashRef[];
  mentions: IdMention[];
}
