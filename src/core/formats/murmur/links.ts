import { isObj, Obj } from '../common';
import { MURMUR_EVENT_ID, MURMUR_SHA, murmurEventType } from './catalog';
import { Finding } from '../../model';
import { MURMUR_CATALOG, MurmurRuleId } from './ruleCatalog';
import { LineInput } from '../../rules/types';
import { MurmurEventStore } from './eventStore';
import { eventSizer } from '../../eventSizer';

/** The event a finding is about: its line and id. */
interface At {
  line: number;
  id: string | null;
}

const MAX_HOPS = 4;
/** `hops` while not known yet, and for a chain that never reaches a root (dangling or cyclic). */
const UNKNOWN = -1;
const NO_ROOT = -2;

/**
 * The parent chain of murmur (its only "chain", §5): event-id-unique, parent-exists and parent-depth, plus,
 * when `formats` is set (verify), event-id-format and sha-format. What it keeps per event is the store's
 * columns (shared with the parent rules when checking) and, at the end, one byte of hop count.
 */
export class LinkCheck {
  /** Events whose parent_id named no earlier event when they were read. */
  private readonly pending: number[] = [];
  private readonly out: Finding[] = [];

  /** Characters of the lines read (line breaks counted), for the store's sizer. */
  private chars = 0;
  /** Sizes the store from the events per character read so far (see eventSizer), when the line count is not known. */
  private readonly sizer: ((read: number) => void) | null;

  /**
   * `size`: the file's line count when known (a loaded model's), else its bytes: the store is sized from the
   * events read so far (see eventSizer).
   */
  constructor(private readonly formats: boolean, size: { lines: number; bytes: number } = { lines: 0, bytes: 0 }, readonly store = new MurmurEventStore()) {
    if (size.lines > 0) store.reserve(size.lines);
    this.sizer = size.lines === 0 && size.bytes > 0 ? eventSizer(size.bytes, () => store.size, (n) => store.reserve(n)) : null;
  }

  /** Reads one line; returns its event's number in the store, or -1 for a line that is not a JSON object. */
  add(input: LineInput): number {
    if (this.sizer) this.sizer((this.chars += input.text.length + 1));
    const o = input.value;
    if (!isObj(o)) return -1;
    const type = typeof o.event_type === 'string' ? o.event_type : '';
    const id = typeof o.event_id === 'string' ? o.event_id : null;
    const parent = typeof o.parent_id === 'string' ? o.parent_id : null;
    const at: At = { line: input.line, id };
    if (this.formats) {
      this.checkIdFormat(o, at, type);
      this.checkShas(o, at, type);
    }
    if (o.parent_id !== undefined && o.parent_id !== null && parent === null) {
      this.push('murmur/parent-exists', at, `parent_id is ${JSON.stringify(o.parent_id)}, expected an event id string or null.`);
    }
    const store = this.store;
    const parentIndex = parent === null ? undefined : store.first(parent);
    const pending = parent !== null && parent !== id && parentIndex === undefined;
    const k = store.size;
    const first = store.add(input.line, type, id, parent, parentIndex);
    // One writer may write session_start twice with its one session event id (§7.3).
    if (first !== undefined && first !== k && !(store.type(first) === 'session_start' && type === 'session_start')) {
      this.push('murmur/event-id-unique', at, `event_id ${id} is already used by the ${store.type(first) || 'event'} on line ${store.line(first)}; only a repeated session_start may reuse its id.`);
    }
    if (pending) this.pending.push(k);
    return k;
  }

  finish(): Finding[] {
    for (const k of this.pending) this.resolveLate(k);
    const hops = new Int8Array(this.store.size).fill(UNKNOWN);
    for (let k = 0; k < this.store.size; k++) this.checkDepth(k, hops);
    return this.out;
  }

  /** A parent not seen before this line: written later (a forward reference) or not in the file. */
  private resolveLate(k: number): void {
    const store = this.store;
    const parent = store.parent(k)!;
    const target = store.first(parent);
    const type = store.type(k);
    const writer = murmurEventType(type)?.writer;
    if (target === undefined) {
      this.push('murmur/parent-exists', this.store.at(k), `parent_id ${parent} names no event in this file (expected an event_id written earlier); the ${type || 'event'} is shown as a root.`);
    } else if (writer === 'prior') {
      return; // shell_lost is appended later by the next session; its parent may be anywhere in the file.
    } else if ((writer === 'resource' || writer === 'plan') && store.type(target) === 'session_start') {
      this.push('murmur/parent-exists', this.store.at(k), `parent_id ${parent} names the session_start on line ${store.line(target)}, after this line: an appender wrote before session_start (a forward reference).`, true);
    } else {
      this.push('murmur/parent-exists', this.store.at(k), `parent_id ${parent} names the ${store.type(target) || 'event'} on line ${store.line(target)}, after this line; a parent is always written before its children.`);
    }
  }

  /**
   * In file order, an event whose parent came earlier takes the parent's hop count plus one, so the usual case
   * costs one lookup. A cycle needs at least one link forward, and only those events take the walk, so a cycle
   * is reported once, on the line whose parent_id points forward (the link that was most likely changed).
   * Hop counts above MAX_HOPS are kept as MAX_HOPS + 1 (all that matters is that they are too many).
   */
  private checkDepth(k: number, hops: Int8Array): void {
    const store = this.store;
    const p = store.parentOf(k);
    let h: number;
    if (p === undefined && store.parent(k) === null) h = 0;
    else if (p === undefined) h = NO_ROOT;
    else if (p < k && hops[p] !== UNKNOWN) h = hops[p] === NO_ROOT ? NO_ROOT : Math.min(MAX_HOPS + 1, hops[p] + 1);
    else h = this.walk(k);
    hops[k] = h;
    if (h > MAX_HOPS) this.tooDeep(k);
  }

  private tooDeep(k: number): void {
    const path: string[] = [];
    let cur = this.store.parent(k);
    for (let i = 0; cur !== null && i <= MAX_HOPS; i++) {
      path.push(cur);
      const e = this.store.first(cur);
      cur = e === undefined ? null : this.store.parent(e);
    }
    this.push('murmur/parent-depth', this.store.at(k), `Following parent_id takes more than ${MAX_HOPS} hops (${path.join(' → ')} …); the tree is at most session → task → turn → event.`);
  }

  /** Walks up at most MAX_HOPS + 1 links; returns the hop count, or NO_ROOT for a cycle or a dangling end. */
  private walk(k: number): number {
    const store = this.store;
    const id = store.id(k);
    // A repeated id resolves to its first event, so only the first holder of an id can walk back to itself.
    const seen = new Set<string>(id !== null && store.first(id) === k ? [id] : []);
    const path: string[] = [];
    let cur = store.parent(k);
    let hops = 0;
    while (cur !== null) {
      if (seen.has(cur)) {
        if (cur === id) this.push('murmur/parent-depth', this.store.at(k), `Parent links form a cycle: ${[id, ...path, cur].join(' → ')}.`);
        return NO_ROOT;
      }
      const p = store.first(cur);
      if (p === undefined) return NO_ROOT; // dangling: reported by parent-exists
      if (++hops > MAX_HOPS) return hops;
      seen.add(cur);
      path.push(cur);
      cur = store.parent(p);
    }
    return hops;
  }

  private checkIdFormat(o: Obj, ev: At, type: string): void {
    if (ev.id !== null && MURMUR_EVENT_ID.test(ev.id)) return;
    // control_change.event_id is supplied by the caller (§2.5), so its form is not the writer's to guarantee.
    const callerSupplied = type === 'control_change' && ev.id !== null;
    const actual = ev.id === null ? (o.event_id === undefined ? 'missing' : JSON.stringify(o.event_id)) : JSON.stringify(ev.id);
    this.push('murmur/event-id-format', ev, `event_id is ${actual}, expected evt_ followed by 32 lowercase hex digits.`, callerSupplied);
  }

  private checkShas(o: Obj, ev: At, type: string): void {
    const bad = (field: string, v: unknown) =>
      this.push('murmur/sha-format', ev, `${field} is ${JSON.stringify(v)}, expected 64 lowercase hex digits (a blob name).`);
    const check = (field: string, v: unknown) => {
      if (!(typeof v === 'string' && MURMUR_SHA.test(v))) bad(field, v);
    };
    if (type === 'session_start' && o.system_prompt_sha256 !== undefined && o.system_prompt_sha256 !== null) check('system_prompt_sha256', o.system_prompt_sha256);
    if (type !== 'inference') return;
    for (const f of ['system_sha', 'tools_sha', 'response_sha']) if (o[f] !== undefined && o[f] !== null) check(f, o[f]);
    const shas = o.message_shas;
    if (shas === undefined || shas === null) return;
    if (!Array.isArray(shas)) bad('message_shas', shas);
    else shas.forEach((v, i) => check(`message_shas[${i}]`, v));
  }

  /** `overridden`: at the rule's documented second severity (MURMUR_CATALOG's overrides), else the catalog's. */
  private push(rule: MurmurRuleId, ev: At, message: string, overridden: false): void;
  private push(rule: 'murmur/parent-exists' | 'murmur/event-id-format', ev: At, message: string, overridden: boolean): void;
  private push(rule: MurmurRuleId, ev: At, message: string): void;
  private push(rule: MurmurRuleId, ev: At, message: string, overridden = false): void {
    const extra = ev.id !== null ? { eventId: ev.id } : undefined;
    this.out.push(overridden
      ? MURMUR_CATALOG.overridden(rule as 'murmur/parent-exists' | 'murmur/event-id-format', ev.line, message, extra)
      : MURMUR_CATALOG.finding(rule, ev.line, message, extra));
  }
}
