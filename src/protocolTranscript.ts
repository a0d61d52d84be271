/**
 * Transcript messages and data (issue 15): the Transcript main view asks the host for pages of blocks, one
 * block per conversation event in file order. Plain JSON; text in here is trace content, shown only as text.
 */
import type { EventCategory, EventStatus, HashRef } from './core/model';
import type { ChatMessage } from './protocolTypes';

/** A content blob an event references, as the transcript shows it. */
export interface TranscriptRef {
  ref: HashRef;
  /** Line of the first block that references the same digest, when it is not this one: shown once. */
  sameAsLine: number | null;
  /** Line of the previous block whose same field held another digest ("changed since last turn"). */
  changedSinceLine: number | null;
}

/** One event of the transcript. */
export interface TranscriptBlock {
  /** Position in the transcript (0-based). */
  index: number;
  node: number;
  line: number;
  kind: string;
  category: EventCategory;
  label: string;
  status: EventStatus;
  tool: string | null;
  model: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  durationMs: number | null;
  messages: ChatMessage[];
  refs: TranscriptRef[];
  /** The line could not be read or parsed: why. */
  error: string | null;
}

/** Webview → host: blocks [start, start + count), or the page holding `aroundNode` when given. */
export interface RequestTranscriptMessage {
  type: 'requestTranscript';
  requestId: number;
  start: number;
  count: number;
  aroundNode?: number;
}

/** Host → webview: a page of the transcript of model `modelVersion`. */
export interface TranscriptPageMessage {
  type: 'transcriptPage';
  requestId: number;
  modelVersion: number;
  /** Blocks in the whole transcript. */
  total: number;
  start: number;
  blocks: TranscriptBlock[];
  /** With `aroundNode`: the index of the block of that node (or of the nearest one before it), else null. */
  focus: number | null;
  /** A row filter narrows the transcript: only the blocks of the events it keeps are counted and sent. */
  filtered?: boolean;
}

/** Host → webview: the transcript's blocks changed (a filter now keeps others): pages already shown are stale. */
export interface TranscriptResetMessage {
  type: 'transcriptReset';
  modelVersion: number;
  /** Whether a row filter narrows the transcript now. */
  filtered: boolean;
}
