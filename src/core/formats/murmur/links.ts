import { isObj, Obj } from '../common';
import { MURMUR_EVENT_ID, MURMUR_SHA, murmurEventType } from './catalog';
import { Finding } from '../../model';
import { MURMUR_CATALOG, MurmurRuleId } from './ruleCatalog';
import { LineInput } from '../../checks/types';

/** What the link checks keep per event: small, so a long trace stays cheap. */
interface LinkEvent {
  line: number;
  id: string | null;
  type: string;
  parent: string | null;
  /** Hops to a root once known; -1 not yet known, -2 the chain never reaches a root (dangling or cyclic). */
  hops: number;
}

const MAX_HOPS = 4;

/**
 * The parent chain of murmur (its only "chain", §5): event-id-unique, parent-exists and parent-depth, plus,
 * when `formats` is set (verify), event-id-format and sha-format.
 */
export class LinkCheck {
  private readonly events: LinkEvent[] = [];
  private readonly firstById = new Map<string, LinkEvent>();
  private readonly pending: LinkEvent[] = [];
  private readonly out: Finding[] = [];

  constructor(private readonly formats: boolean) {}

  add(input: LineInput): void {
    const o = input.value;
    if (!isObj(o)) return;
    const type = typeof o.event_type === 'string' ? o.event_type : '';
    const id = typeof o.event_id === 'string' ? o.event_id : null;
    const parent = typeof o.parent_id === 'string' ? o.parent_id : null;
    const ev: LinkEvent = { line: input.line, id, type, parent, hops: -1 };
    if (this.formats) {
      this.checkIdFormat(o, ev);
      this.checkShas(o, ev);
    }
    if (o.parent_id !== undefined && o.parent_id !== null && parent === null) {
      this.push('murmur/parent-exists', ev, `parent_id is ${JSON.stringify(o.parent_id)}, expected an event id string or null.`);
    }
    if (parent !== null && parent !== id && !this.firstById.has(parent)) this.pending.push(ev);
    if (id !== null) this.register(ev, id);
    this.events.push(ev);
  }

  finish(): Finding[] {
    for (const ev of this.pending) this.resolveLate(ev);
    for (const ev of this.events) this.checkDepth(ev);
    return this.out;
  }

  private register(ev: LinkEvent, id: string): void {
    const first = this.firstById.get(id);
    if (!first) {
      this.firstById.set(id, ev);
      return;
    }
    // One writer may write session_start twice with its one session event id (§7.3).
    if (first.type === 'session_start' && ev.type === 'session_start') return;
    this.push('murmur/event-id-unique', ev, `event_id ${id} is already used by the ${first.type || 'event'} on line ${first.line}; only a repeated session_start may reuse its id.`);
  }

  /** A parent not seen before this line: written later (a forward reference) or not in the file. */
  private resolveLate(ev: LinkEvent): void {
    const target = this.firstById.get(ev.parent!);
    const writer = murmurEventType(ev.type)?.writer;
    if (!target) {
      this.push('murmur/parent-exists', ev, `parent_id ${ev.parent} names no event in this file (expected an event_id written earlier); the ${ev.type || 'event'} is shown as a root.`);
    } else if (writer === 'prior') {
      return; // shell_lost is appended later by the next session; its parent may be anywhere in the file.
    } else if ((writer === 'resource' || writer === 'plan') && target.type === 'session_start') {
      this.push('murmur/parent-exists', ev, `parent_id ${ev.parent} names the session_start on line ${target.line}, after this line: an appender wrote before session_start (a forward reference).`, true);
    } else {
      this.push('murmur/parent-exists', ev, `parent_id ${ev.parent} names the ${target.type || 'event'} on line ${target.line}, after this line; a parent is always written before its children.`);
    }
  }

  /**
   * In file order, an event whose parent came earlier takes the parent's hop count plus one, so the usual case
   * costs one lookup. A cycle needs at least one link forward, and only those events take the walk, so a cycle
   * is reported once, on the line whose parent_id points forward (the link that was most likely changed).
   */
  private checkDepth(ev: LinkEvent): void {
    const p = ev.parent === null ? undefined : this.firstById.get(ev.parent);
    if (ev.parent === null) ev.hops = 0;
    else if (!p) ev.hops = -2;
    else if (p.line < ev.line && p.hops !== -1) ev.hops = p.hops === -2 ? -2 : p.hops + 1;
    else ev.hops = this.walk(ev);
    if (ev.hops > MAX_HOPS) this.tooDeep(ev);
  }

  private tooDeep(ev: LinkEvent): void {
    const path: string[] = [];
    let cur = ev.parent;
    for (let i = 0; cur !== null && i <= MAX_HOPS; i++) {
      path.push(cur);
      cur = this.firstById.get(cur)?.parent ?? null;
    }
    this.push('murmur/parent-depth', ev, `Following parent_id takes more than ${MAX_HOPS} hops (${path.join(' → ')} …); the tree is at most session → task → turn → event.`);
  }

  /** Walks up at most MAX_HOPS + 1 links; returns the hop count, or -2 for a cycle or a dangling end. */
  private walk(ev: LinkEvent): number {
    // A repeated id resolves to its first event, so only the first holder of an id can walk back to itself.
    const seen = new Set<string>(ev.id !== null && this.firstById.get(ev.id) === ev ? [ev.id] : []);
    const path: string[] = [];
    let cur = ev.parent;
    let hops = 0;
    while (cur !== null) {
      if (seen.has(cur)) {
        if (cur === ev.id) this.push('murmur/parent-depth', ev, `Parent links form a cycle: ${[ev.id, ...path, cur].join(' → ')}.`);
        return -2;
      }
      const p = this.firstById.get(cur);
      if (!p) return -2; // dangling: reported by parent-exists
      if (++hops > MAX_HOPS) return hops;
      seen.add(cur);
      path.push(cur);
      cur = p.parent;
    }
    return hops;
  }

  private checkIdFormat(o: Obj, ev: LinkEvent): void {
    if (ev.id !== null && MURMUR_EVENT_ID.test(ev.id)) return;
    // control_change.event_id is supplied by the caller (§2.5), so its form is not the writer's to guarantee.
    const callerSupplied = ev.type === 'control_change' && ev.id !== null;
    const actual = ev.id === null ? (o.event_id === undefined ? 'missing' : JSON.stringify(o.event_id)) : JSON.stringify(ev.id);
    this.push('murmur/event-id-format', ev, `event_id is ${actual}, expected evt_ followed by 32 lowercase hex digits.`, callerSupplied);
  }

  private checkShas(o: Obj, ev: LinkEvent): void {
    const bad = (field: string, v: unknown) =>
      this.push('murmur/sha-format', ev, `${field} is ${JSON.stringify(v)}, expected 64 lowercase hex digits (a blob name).`);
    const check = (field: string, v: unknown) => {
      if (!(typeof v === 'string' && MURMUR_SHA.test(v))) bad(field, v);
    };
    if (ev.type === 'session_start' && o.system_prompt_sha256 !== undefined && o.system_prompt_sha256 !== null) check('system_prompt_sha256', o.system_prompt_sha256);
    if (ev.type !== 'inference') return;
    for (const f of ['system_sha', 'tools_sha', 'response_sha']) if (o[f] !== undefined && o[f] !== null) check(f, o[f]);
    const shas = o.message_shas;
    if (shas === undefined || shas === null) return;
    if (!Array.isArray(shas)) bad('message_shas', shas);
    else shas.forEach((v, i) => check(`message_shas[${i}]`, v));
  }

  /** `overridden`: at the rule's documented second severity (MURMUR_CATALOG's overrides), else the catalog's. */
  private push(rule: MurmurRuleId, ev: LinkEvent, message: string, overridden: false): void;
  private push(rule: 'murmur/parent-exists' | 'murmur/event-id-format', ev: LinkEvent, message: string, overridden: boolean): void;
  private push(rule: MurmurRuleId, ev: LinkEvent, message: string): void;
  private push(rule: MurmurRuleId, ev: LinkEvent, message: string, overridden = false): void {
    const extra = ev.id !== null ? { eventId: ev.id } : undefined;
    this.out.push(overridden
      ? MURMUR_CATALOG.overridden(rule as 'murmur/parent-exists' | 'murmur/event-id-format', ev.line, message, extra)
      : MURMUR_CATALOG.finding(rule, ev.line, message, extra));
  }
}
