import { Finding } from '../../model';
import { CODEX_CATALOG } from './catalog';
import { isObj, Obj } from '../common';
import { EXEC_EVENT_TYPES } from './codexSniff';

/** What the exec-stream rules need of one `codex exec --json` line. */
export interface ExecLine {
  line: number;
  type: string | null;
  itemId: string | null;
  itemType: string | null;
}

/** Reduces an exec event to an {@link ExecLine}. */
export function execLine(line: number, o: Obj | null): ExecLine {
  const item = o && isObj(o.item) ? o.item : null;
  const s = (x: Obj | null, k: string) => (x && typeof x[k] === 'string' ? (x[k] as string) : null);
  return { line, type: s(o, 'type'), itemId: s(item, 'id'), itemType: s(item, 'type') };
}

/** A finding at the catalog severity of its rule. */
const f = CODEX_CATALOG.finding;

/** Integrity of an exec stream: it starts with thread.started (the process's first line). */
export function verifyExec(lines: ExecLine[]): Finding[] {
  const first = lines[0];
  if (!first || first.type === 'thread.started') return [];
  return [f('codex/exec-thread-first', first.line, `The first line is ${first.type === null ? 'not an exec event' : `a ${first.type}`}, expected thread.started (the head of the stream is missing).`)];
}

function turnFindings(lines: ExecLine[], out: Finding[]): void {
  let open: ExecLine | null = null;
  for (const l of lines) {
    if (l.type === 'turn.started') {
      if (open) out.push(f('codex/exec-turn-unfinished', open.line, `turn.started on line ${open.line} has no turn.completed or turn.failed before the next turn.started (line ${l.line}).`));
      open = l;
    } else if (l.type === 'turn.completed' || l.type === 'turn.failed') open = null;
    else if (l.type === 'thread.started' && open) {
      out.push(f('codex/exec-turn-unfinished', open.line, `turn.started on line ${open.line} has no turn.completed or turn.failed before the next thread.started (line ${l.line}).`));
      open = null;
    }
  }
  if (open) out.push(f('codex/exec-turn-unfinished', open.line, `turn.started on line ${open.line} has no turn.completed or turn.failed: the stream was cut or the process stopped.`));
}

function itemFindings(lines: ExecLine[], out: Finding[]): void {
  const started = new Map<string, ExecLine>();
  for (const l of lines) {
    if (l.type === 'turn.started' || l.type === 'thread.started') {
      for (const s of started.values()) out.push(f('codex/exec-item-unfinished', s.line, `item ${s.itemId} (${s.itemType}) started on line ${s.line} but never completed.`));
      started.clear();
    }
    if (l.itemId === null) continue;
    if (l.type === 'item.started') started.set(l.itemId, l);
    else if (l.type === 'item.completed') started.delete(l.itemId);
  }
  for (const s of started.values()) out.push(f('codex/exec-item-unfinished', s.line, `item ${s.itemId} (${s.itemType}) started on line ${s.line} but never completed.`));
}

/** Conformance of an exec stream: known event types, turns that end, items that complete. */
export function checkExec(lines: ExecLine[]): Finding[] {
  const out: Finding[] = [];
  const unknown = new Map<string, { line: number; count: number }>();
  for (const l of lines) {
    if (l.type === null) out.push(f('codex/exec-event-shape', l.line, 'The line has no string "type"; every codex exec --json line is a typed event.'));
    else if (!EXEC_EVENT_TYPES.has(l.type)) {
      const u = unknown.get(l.type);
      if (u) u.count++;
      else unknown.set(l.type, { line: l.line, count: 1 });
    } else if (l.type.startsWith('item.') && (l.itemId === null || l.itemType === null)) {
      out.push(f('codex/exec-event-shape', l.line, `${l.type} has no item with a string id and type.`));
    }
  }
  for (const [type, u] of unknown) out.push(f('codex/type-known', u.line, `Event type ${JSON.stringify(type)} is not one codex exec --json is known to print (${u.count} line${u.count > 1 ? 's' : ''}); shown as it is.`));
  turnFindings(lines, out);
  itemFindings(lines, out);
  return out;
}
