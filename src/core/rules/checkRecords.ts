import { readText } from '../byteSource';
import { TracePath, tracePathToOpen } from '../tracePath';
import { Finding } from '../model';
import { CheckContext, LineInput, StreamCheck } from './types';
import { splitConcatenatedJson } from '../json/concatenatedJson';

/** One parsed record a format check works on, with the 1-based line its finding should point at. */
export interface CheckRecord {
  line: number;
  value: unknown;
  /** The whole text of a multi-line document the record comes from, to find its parts' own lines. */
  doc?: DocumentText;
}

/** The text of a multi-line JSON document with a line index, searchable forward from a position. */
export class DocumentText {
  private readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  /** 1-based line of a character position. */
  lineAt(pos: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /**
   * The position of the next `"key": value` (any spacing) at or after `from` whose value is the JSON string
   * `value`, or -1. Walks key occurrences forward, so a file read in order costs one pass.
   */
  findKeyValue(key: string, value: string, from: number): number {
    const quotedKey = JSON.stringify(key);
    const quotedValue = JSON.stringify(value);
    for (let pos = this.text.indexOf(quotedKey, from); pos >= 0; pos = this.text.indexOf(quotedKey, pos + 1)) {
      let i = pos + quotedKey.length;
      while (/\s/.test(this.text[i] ?? '')) i++;
      if (this.text[i] !== ':') continue;
      i++;
      while (/\s/.test(this.text[i] ?? '')) i++;
      if (this.text.startsWith(quotedValue, i)) return pos;
    }
    return -1;
  }
}

/**
 * Reads the whole multi-line JSON document of a document trace. The runner hands document traces no lines, so
 * checks that need field values read the document again; undefined when it no longer parses.
 */
export async function readDocument(path: TracePath): Promise<{ value: unknown; text: DocumentText } | undefined> {
  try {
    const text = (await readText(path)) ?? '';
    return { value: parseDocumentValue(text), text: new DocumentText(text) };
  } catch {
    return undefined;
  }
}

/** The document's value; concatenated values (as the loader reads them) come back as an array of them. */
function parseDocumentValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const parts = splitConcatenatedJson(text);
    if (!parts) throw e;
    return parts.values.map((p) => p.value);
  }
}

/**
 * A StreamCheck that reduces every parsed JSONL line to a compact digest as it streams by (so a huge trace is
 * never held in memory) and hands the digests to `analyse` at the end. For a document trace
 * (`ctx.model.document`), `fromDocument` turns the re-read document into records, digested the same way.
 */
export function collectingCheck<T>(
  ctx: CheckContext,
  digest: (record: CheckRecord, index: number) => T,
  analyse: (digests: T[]) => Finding[] | Promise<Finding[]>,
  fromDocument: (doc: unknown, text: DocumentText) => CheckRecord[],
): StreamCheck {
  const digests: T[] = [];
  return {
    add(input: LineInput) {
      if (!input.blank && input.value !== undefined) digests.push(digest({ line: input.line, value: input.value }, digests.length));
    },
    async finish() {
      if (ctx.model.document) {
        const doc = await readDocument(tracePathToOpen(ctx.model));
        if (doc === undefined) return [];
        fromDocument(doc.value, doc.text).forEach((r, i) => digests.push(digest(r, i)));
      }
      return analyse(digests);
    },
  };
}

/** The line of event `i` of the model, or `fallback` when the model has fewer events (a file changed under us). */
export function eventLine(ctx: CheckContext, i: number, fallback = 1): number {
  return i < ctx.model.events.size ? ctx.model.events.lineOf(i) : fallback;
}

/**
 * Finds cycles in a parent map (id → parent id) without recursion. Each cycle is reported once, at the member
 * that comes last in the file (the link most likely written wrong), like the tree builder cuts it.
 */
export function findParentCycles(parents: Map<string, string>, order: Map<string, number>): string[][] {
  const state = new Map<string, number>(); // 1 = on the current walk, 2 = done
  const cycles: string[][] = [];
  for (const start of parents.keys()) {
    if (state.has(start)) continue;
    const walk: string[] = [];
    let cur: string | undefined = start;
    while (cur !== undefined && !state.has(cur) && order.has(cur)) {
      state.set(cur, 1);
      walk.push(cur);
      cur = parents.get(cur);
    }
    if (cur !== undefined && state.get(cur) === 1) cycles.push(walk.slice(walk.indexOf(cur)));
    for (const w of walk) state.set(w, 2);
  }
  return cycles.map((c) => {
    const last = c.reduce((a, b) => ((order.get(b) ?? 0) > (order.get(a) ?? 0) ? b : a));
    return [last, ...c.filter((x) => x !== last)];
  });
}

/** Formats a zod-style issue path `message.content[2].id`. */
export function issuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out;
}
