import { isObj, Obj } from '../common';
import { isHookInference, murmurEventType, MurmurWriter } from './catalog';
import { LineInput } from '../../rules/types';

/** The facts the cross-line checks need about one event line. */
export interface CheckEvent {
  line: number;
  type: string;
  id: string | null;
  /** parent_id when it is a string; null when null, absent or malformed. */
  parent: string | null;
  /** True when the line has a parent_id key whose value is null. */
  nullParent: boolean;
  sessionId: string | null;
  time: number | null;
  /** task_id: a string, null, or undefined when the key is absent. */
  taskId: string | null | undefined;
  turn: number | null;
  hook: boolean;
  /** null for event types newer than the spec. */
  writer: MurmurWriter | null;
}

/** Reads the facts of an event line, or null for lines that are not JSON objects. */
export function toCheckEvent(input: LineInput): { ev: CheckEvent; o: Obj } | null {
  const o = input.value;
  if (!isObj(o)) return null;
  const type = typeof o.event_type === 'string' ? o.event_type : '';
  const ev: CheckEvent = {
    line: input.line,
    type,
    id: typeof o.event_id === 'string' ? o.event_id : null,
    parent: typeof o.parent_id === 'string' ? o.parent_id : null,
    nullParent: 'parent_id' in o && o.parent_id === null,
    sessionId: typeof o.session_id === 'string' ? o.session_id : null,
    time: typeof o.timestamp === 'number' && Number.isFinite(o.timestamp) ? o.timestamp : null,
    taskId: o.task_id === undefined ? undefined : typeof o.task_id === 'string' ? o.task_id : null,
    turn: typeof o.turn === 'number' ? o.turn : null,
    hook: isHookInference(o),
    writer: murmurEventType(type)?.writer ?? null,
  };
  return { ev, o };
}

/** One session segment: session_start … session_end of one writer, plus what appenders add around it (§7.4). */
export interface Segment {
  index: number;
  firstLine: number;
  /** The session event id, once a session_start joined the segment. */
  sessionEventId: string | null;
  sessionStartLine: number | null;
  /** Line of the segment's first session_end. */
  endLine: number | null;
}

/** Where an event falls: its segment, whether it opened it, whether it came after the segment's session_end. */
export interface Placement {
  seg: Segment;
  fresh: boolean;
  afterEnd: boolean;
}

/**
 * Splits a file into session segments. The file is append-only, so a reused workdir holds several writers'
 * sessions one after another. A segment starts at the file start, at a session_start with a new id, or, once
 * the segment has ended, at an event that does not name the ended session (a new writer's pre-session lines).
 * Appender lines and shell_lost after session_end stay in the ended segment.
 */
export class Segmenter {
  private current: Segment | null = null;
  private count = 0;

  place(ev: CheckEvent): Placement {
    const cur = this.current;
    if (!cur) return this.open(ev);
    if (ev.type === 'session_start') {
      if (cur.sessionEventId === null && cur.endLine === null) return this.join(cur, ev, false);
      if (ev.id !== null && ev.id === cur.sessionEventId) return this.join(cur, ev, cur.endLine !== null);
      return this.open(ev);
    }
    if (cur.endLine === null || ev.writer === 'prior') return this.join(cur, ev, cur.endLine !== null && ev.writer !== 'prior');
    // After session_end: lines that still name the ended session belong to it; others start a new writer's segment.
    if (ev.parent !== null && ev.parent === cur.sessionEventId) return this.join(cur, ev, ev.writer === 'trace' || ev.writer === null);
    return this.open(ev);
  }

  private open(ev: CheckEvent): Placement {
    this.current = { index: this.count++, firstLine: ev.line, sessionEventId: null, sessionStartLine: null, endLine: null };
    return this.join(this.current, ev, false, true);
  }

  private join(seg: Segment, ev: CheckEvent, afterEnd: boolean, fresh = false): Placement {
    if (ev.type === 'session_start' && seg.sessionEventId === null) {
      seg.sessionEventId = ev.id;
      seg.sessionStartLine = ev.line;
    }
    if (ev.type === 'session_end' && seg.endLine === null) seg.endLine = ev.line;
    return { seg, fresh, afterEnd };
  }
}
