import { readFileSync } from 'node:fs';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const linesOf = (path: string): Obj[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * Claude Code transcripts' usage worked out apart from the reader: each assistant message of the files once, at
 * its last line's usage (input counts cache reads and writes, as the reader counts what the model read), and how
 * many lines repeated a message already seen (its earlier snapshots). A fork's copies of its origin's responses
 * are the origin's, not counted.
 */
export function claudeCountedByHand(files: string[]): { input: number; output: number; cacheRead: number; cacheWrite: number; responses: number; repeats: number } {
  const out = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, responses: 0, repeats: 0 };
  for (const f of files) {
    const last = new Map<string, Obj>();
    let lines = 0;
    linesOf(f).forEach((v, k) => {
      if (v.type !== 'assistant' || !v.message?.usage) return;
      // A fork's copy of its origin's response (`requestSessionId`, the origin's id) is the origin's usage.
      if (typeof v.requestSessionId === 'string' && v.requestSessionId !== v.sessionId) return;
      lines++;
      last.set(v.message.id ?? `line ${k}`, v.message.usage);
    });
    out.responses += last.size;
    out.repeats += lines - last.size;
    for (const u of last.values()) {
      out.input += n(u.input_tokens) + n(u.cache_read_input_tokens) + n(u.cache_creation_input_tokens);
      out.output += n(u.output_tokens);
      out.cacheRead += n(u.cache_read_input_tokens);
      out.cacheWrite += n(u.cache_creation_input_tokens);
    }
  }
  return out;
}
