/**
 * Transcript messages and data (issue 15): the Transcript main view asks the host for pages of blocks, one
 * block per conversation event in file order. Plain JSON; text in here is trace content, shown only as text.
 */
import type { EventCategory, EventStatus, HashRef } from '../core/model';
import type { ChatMessage, EventDetail } from './types';

/** A content blob an event references, as the transcript shows it. */
export interface TranscriptRef {
  ref: HashRef;
  /** Line of the first block that references the same digest, when it is not this one: shown once. */
  sameAsLine: number | null;
  /** Line of the previous block whose same field held another digest ("changed since last turn"). */
  changedSinceLine: number | null;
}

/** One turn: what came in, the model's reply and its tool calls; its totals are its events' own. */
export interface TranscriptTurn {
  /** 1-based, in the whole transcript (a filter does not renumber). */
  number: number;
  tokensIn: number | null;
  tokensOut: number | null;
  /** Sum of the durations of the turn's model calls. */
  modelMs: number | null;
  /** Blocks in the turn (before any filter). */
  blocks: number;
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
  /** The session's file the block comes from, when not the trace's own (a subagent's, shown under its call); `line` is of that file. */
  file?: EventDetail['file'];
  /** The turn this block opens (the first of its turn shown), else absent. */
  turn?: TranscriptTurn;
  /**
   * Messages at the start of `messages` that repeat the previous block's (a history re-sent with every model
   * call): they are not sent again; `line` is the block that showed them.
   */
  earlier?: { count: number; line: number };
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

/** Webview → host: the messages a block's `earlier` stands for (the reader opened them in place). */
export interface RequestEarlierMessagesMessage {
  type: 'requestEarlierMessages';
  requestId: number;
  node: number;
}

/** Host → webview: the messages block `node` left out as re-sent history, oldest first (none if it has none). */
export interface EarlierMessagesMessage {
  type: 'earlierMessages';
  requestId: number;
  modelVersion: number;
  node: number;
  messages: ChatMessage[];
}

/** Host → webview: the transcript's blocks changed (a filter now keeps others): pages already shown are stale. */
export interface TranscriptResetMessage {
  type: 'transcriptReset';
  modelVersion: number;
  /** Whether a row filter narrows the transcript now. */
  filtered: boolean;
}
