import type { EventTable } from './eventTable';
import { FormatModule } from './format';
import { Finding } from './model';
import { EventTree } from './tree';
import { TREE_CATALOG } from './catalog/genericCatalog';

/** What the lookup reads of the events: the viewer's event table, or a streamed check's compact facts. */
export type ParentLinks = Pick<EventTable, 'size' | 'parentId' | 'lineOf'>;

/**
 * Parents that name no event of this file but live in a file beside it (a Claude Code session's main file,
 * its subagents and compaction agents): asks the format where else to look, then replaces the loader's
 * `tree/dangling-parent` warnings for those events with an info saying where the parent is. The events stay
 * roots of this file's tree. Formats without `findElsewhere` are left as they are.
 */
export async function resolveParentsElsewhere(module: FormatModule, path: string, table: ParentLinks, tree: { idIndex: Pick<EventTree['idIndex'], 'has'> }, diagnostics: Finding[]): Promise<void> {
  if (!module.findElsewhere || !diagnostics.some((d) => d.rule === 'tree/dangling-parent')) return;
  const wanted = new Map<string, number[]>();
  for (let i = 0; i < table.size; i++) {
    const pid = table.parentId(i);
    // Only the recorded link counts (an event may be shown under another: EventDraft.displayParent).
    if (pid === null || tree.idIndex.has(pid)) continue;
    const lines = wanted.get(pid);
    if (lines) lines.push(table.lineOf(i));
    else wanted.set(pid, [table.lineOf(i)]);
  }
  if (wanted.size === 0) return;
  let found: ReadonlyMap<string, string>;
  try {
    found = await module.findElsewhere(path, new Set(wanted.keys()));
  } catch {
    return; // an unreadable folder leaves the warnings as they were
  }
  const resolved = new Map<number, { id: string; file: string }>();
  for (const [id, file] of found) for (const line of wanted.get(id) ?? []) resolved.set(line, { id, file });
  for (let k = diagnostics.length - 1; k >= 0; k--) {
    const d = diagnostics[k];
    const r = d.rule === 'tree/dangling-parent' ? resolved.get(d.line) : undefined;
    if (!r) continue;
    diagnostics[k] = { rule: 'tree/parent-elsewhere', severity: TREE_CATALOG.severityOf('tree/parent-elsewhere'), line: d.line, ...(d.eventId ? { eventId: d.eventId } : {}), message: `Parent ${r.id} is in ${r.file}, a file of the same session; the event is shown as a root here.` };
  }
}
