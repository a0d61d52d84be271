/**
 * The rows of the Search Agent Sessions quick pick (issue 39, part 2): the hits of a search, grouped by session under
 * a separator naming it (agent, when, title), each hit with its line, what it is and its snippet. No `vscode` here:
 * src/vscode/sessions/sessionSearchPick.ts turns the rows into quick pick items.
 */
import type { SearchHit, SessionHits } from '../core/sessions/sessionSearch';
import { basename } from '../core/io/paths';

/** A separator row (a session) or a hit row. */
export type SearchPickRow = { separator: true; label: string } | { separator: false; label: string; description: string; detail: string; hit: SearchHit };

/** Words for what a hit's text is. */
const FIELD_WORDS: Record<SearchHit['field'], string> = {
  prompt: 'prompt',
  reply: 'reply',
  'tool-input': 'tool input',
  'tool-output': 'tool output',
  other: 'record',
};

/** The rows for these sessions' hits, in their order (newest session first). */
export function searchPickRows(sessions: readonly SessionHits[]): SearchPickRow[] {
  const rows: SearchPickRow[] = [];
  for (const s of sessions) {
    const when = s.startTime ? s.startTime.slice(0, 16).replace('T', ' ') : 'no time';
    rows.push({ separator: true, label: `${s.agent} · ${when} · ${s.title ?? basename(s.file)}` });
    for (const h of s.hits) {
      const where = h.file === s.file ? `line ${h.line}` : `${basename(h.file)} line ${h.line}`;
      rows.push({ separator: false, label: h.snippet || '(no text)', description: `${FIELD_WORDS[h.field]} · ${where}`, detail: h.file, hit: h });
    }
  }
  return rows;
}
