import { isObj, num, obj, Obj, str } from '../common';
import type { SessionOrigin } from '../../traceModel';
import { fileSystem } from '../../io/fileSystem';
import { dirname, join } from '../../io/paths';

/**
 * A Codex fork (`codex fork`, `codex exec fork <id>`) as its rollout shows it (observed in 0.171.0): a new file and
 * session id whose `session_meta` names the origin (`forked_from_id`, `forked_from_ordinal_exclusive`: the origin's
 * lines the fork starts from end before that ordinal, and its own ordinals go on from there). The origin's history
 * is not copied into the file, but the thread's running totals (`token_count` `total_token_usage`,
 * `token_usage_record` `thread_token_usage`) go on from the origin's: its share, the first running total after the
 * fork less that line's own response, is taken off every running total of the fork.
 */
export class CodexFork {
  private from: string | null = null;
  private upTo: number | null = null;
  /** The origin's share of the running totals, by field, once the fork's first usage line is seen. */
  private base: Record<string, number> | null = null;

  /** A `session_meta` line: a fork's names its origin (a resumed fork's again, with the same origin). */
  meta(p: Obj): void {
    const from = str(p, 'forked_from_id');
    if (from === null || from === this.from) return;
    this.from = from;
    this.upTo = num(p, 'forked_from_ordinal_exclusive') ?? num(obj(p, 'history_base'), 'end_ordinal_exclusive');
    this.base = null;
  }

  /** The running total `total` of a line whose own response used `last`, less the origin's share. */
  own(total: Obj, last: Obj | null): Obj {
    if (this.from === null) return total;
    if (this.base === null && last) {
      const base: Record<string, number> = {};
      for (const [k, v] of Object.entries(total)) {
        const l = num(last, k);
        if (typeof v === 'number' && l !== null) base[k] = Math.max(0, v - l);
      }
      this.base = base;
    }
    const b = this.base;
    if (b === null) return total;
    const out: Obj = {};
    for (const [k, v] of Object.entries(total)) out[k] = typeof v === 'number' && typeof b[k] === 'number' ? Math.max(0, v - b[k]) : v;
    return out;
  }

  /** What the file says of its origin, null when it is no fork. */
  origin(): SessionOrigin | null {
    if (this.from === null) return null;
    const b = this.base;
    const upTo = this.upTo !== null ? ` (its lines before ordinal ${this.upTo})` : '';
    const excluded = [
      b && isObj(b)
        ? `This session was forked from session ${this.from}${upTo}, whose history this file refers to but does not copy. Codex carries the thread's running totals on from the origin's: its share (${b.input_tokens ?? 0} input, ${b.output_tokens ?? 0} output tokens) is taken off them; it is that session's usage.`
        : `This session was forked from session ${this.from}${upTo}, whose history this file refers to but does not copy.`,
    ];
    return { relation: 'fork', sessionId: this.from, inherited: null, upToOrdinal: this.upTo, excluded };
  }
}

/** The rollout of session `sessionId` in the folder of `path` (a fork's origin: `rollout-<time>-<id>.jsonl`), or null. */
export async function originRollout(path: string, sessionId: string): Promise<string | null> {
  const dir = dirname(path);
  try {
    const names = (await fileSystem().list(dir)).filter((e) => e.kind === 'file').map((e) => e.name);
    const name = names.find((n) => n.startsWith('rollout-') && (n.endsWith(`-${sessionId}.jsonl`) || n.endsWith(`-${sessionId}.jsonl.gz`)));
    const file = name === undefined ? null : join(dir, name);
    return file === path ? null : file;
  } catch {
    return null;
  }
}
