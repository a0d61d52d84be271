import { TraceModel } from './loadTrace';

/** A JSON string value found in a line, with its key and its character range (quotes included). */
export interface StringToken {
  value: string;
  /** The object key the value belongs to (for arrays: the array's key), or null. */
  key: string | null;
  start: number;
  end: number;
}

/**
 * Finds the JSON string value under character `offset` of one line, with the key it belongs to.
 * A small tokenizer over the line: no full parse, so it works on long lines and on torn ones too.
 */
export function stringTokenAt(line: string, offset: number): StringToken | null {
  const keyStack: (string | null)[] = [];
  let lastKey: string | null = null;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '"') {
      const start = i;
      i++;
      let raw = '';
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\') {
          raw += line.slice(i, i + 2);
          i += 2;
        } else raw += line[i++];
      }
      const end = Math.min(i + 1, line.length);
      i = end;
      let j = i;
      while (j < line.length && (line[j] === ' ' || line[j] === '\t')) j++;
      const isKey = line[j] === ':';
      const value = decodeJsonString(raw);
      if (isKey) lastKey = value;
      else if (offset >= start && offset < end) return { value, key: lastKey ?? keyStack[keyStack.length - 1] ?? null, start, end };
      continue;
    }
    if (c === '{' || c === '[') {
      keyStack.push(lastKey);
      lastKey = c === '[' ? lastKey : null;
    } else if (c === '}' || c === ']') {
      lastKey = keyStack.pop() ?? null;
    } else if (c === ',') {
      // after a comma inside an object the next key is read fresh; inside an array the array's key still applies
    }
    i++;
  }
  return null;
}

function decodeJsonString(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Where an id is defined and where it is mentioned. */
export interface IdLocations {
  /** Event index that defines the id (its own id), or the first event mentioning it; -1 when unknown. */
  definition: number;
  /** Events that mention the id (parent links, call ids, turn ids, …), in file order, definition included. */
  references: number[];
}

/** Maps every id a trace's events define or mention to the events involved. Built once per model. */
export class IdLookup {
  private readonly mentions = new Map<string, number[]>();

  constructor(private readonly model: TraceModel) {
    const t = model.events;
    const add = (id: string, i: number) => {
      const list = this.mentions.get(id);
      if (!list) this.mentions.set(id, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    };
    for (let i = 0; i < t.size; i++) {
      const own = t.id(i);
      if (own !== null) add(own, i);
      const pid = t.parentId(i);
      if (pid !== null) add(pid, i);
      for (const m of t.mentionsOf(i)) add(m.id, i);
    }
  }

  /** Locations of `id`, or null when no event defines or mentions it. */
  find(id: string): IdLocations | null {
    const refs = this.mentions.get(id);
    const own = this.model.tree.idIndex.get(id);
    if (!refs && own === undefined) return null;
    return { definition: own ?? refs![0], references: refs ?? [own!] };
  }

  /** Number of distinct ids known. */
  get size(): number {
    return this.mentions.size;
  }
}

/** True for key names that hold ids, so a hover on an unknown value can say "not in this trace". */
export function isIdKey(key: string | null): boolean {
  if (!key) return false;
  return /(^id$|_id$|Id$|^uuid$|Uuid$|_ids$|Ids$|^parent$|causal_token|leafUuid|tool_use_id|call_id|span_id|spanId)/.test(key);
}
