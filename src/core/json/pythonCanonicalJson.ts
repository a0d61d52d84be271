import { Buffer } from 'buffer';
import { Hash, sha256 } from '../io/platform';
import { JsonEvents, JsonTokenizer } from './jsonTokenizer';

/**
 * SHA-256 of Python's `canonical_json(json.loads(bytes))` (agentledger `jsonutil.py`: sorted keys, `,`/`:`
 * separators, `ensure_ascii=False`), computed from a blob's bytes without building the value.
 *
 * The Python runtime writes blobs with `sort_keys=True`, so the keys are already in canonical order and the
 * canonical text can be written while reading. If a file's keys are not strictly increasing (hand-edited, or
 * a duplicate key), the streamed text would be wrong: the result then asks for the in-memory path
 * ({@link canonicalJsonSha256OfBuffer}), which sorts.
 */
export type CanonicalDigest =
  | { kind: 'digest'; digest: string }
  | { kind: 'needs-sorting' }
  | { kind: 'invalid'; error: string };

interface Frame {
  isObject: boolean;
  count: number;
  lastKey: Buffer | null;
}

/** Writes the canonical text of the token stream to a hash, noticing keys out of canonical order. */
class CanonicalWriter implements JsonEvents {
  private readonly stack: Frame[] = [];
  unsorted = false;
  constructor(private readonly hash: Hash) {}

  private beforeValue(): void {
    const top = this.stack[this.stack.length - 1];
    if (top && !top.isObject && top.count++ > 0) this.hash.update(',');
  }
  startContainer(isObject: boolean): void {
    this.beforeValue();
    this.hash.update(isObject ? '{' : '[');
    this.stack.push({ isObject, count: 0, lastKey: null });
  }
  endContainer(): void {
    const f = this.stack.pop();
    this.hash.update(f?.isObject ? '}' : ']');
  }
  key(decoded: Buffer, canonical: Buffer): void {
    const top = this.stack[this.stack.length - 1];
    if (top.count++ > 0) this.hash.update(',');
    // Python sorts str keys by code point, which is the byte order of their UTF-8 encodings.
    if (top.lastKey !== null && Buffer.compare(decoded, top.lastKey) <= 0) this.unsorted = true;
    top.lastKey = decoded;
    this.hash.update('"');
    this.hash.update(canonical);
    this.hash.update('":');
  }
  stringBegin(): void {
    this.beforeValue();
    this.hash.update('"');
  }
  stringBytes(canonical: Uint8Array): void {
    this.hash.update(canonical);
  }
  stringEnd(): void {
    this.hash.update('"');
  }
  scalar(canonical: string): void {
    this.beforeValue();
    this.hash.update(canonical);
  }
}

/** Incremental form: feed the blob's bytes, then {@link finish}. */
export class PythonCanonicalJsonHasher {
  private readonly hash = sha256();
  private readonly writer = new CanonicalWriter(this.hash);
  private readonly tokenizer = new JsonTokenizer(this.writer);

  /** Feeds the next bytes; returns false once the input is known to be invalid (further input is ignored). */
  update(chunk: Uint8Array): boolean {
    return this.tokenizer.error === null && this.tokenizer.update(chunk);
  }

  /** The canonical digest, or why it cannot be streamed or computed. */
  finish(): CanonicalDigest {
    const error = this.tokenizer.finish();
    if (error !== null) return { kind: 'invalid', error };
    if (this.writer.unsorted) return { kind: 'needs-sorting' };
    return { kind: 'digest', digest: this.hash.digest('hex') };
  }
}

type Node =
  | { t: 'o'; entries: Map<string, { key: Buffer; canonical: Buffer; value: Node }> }
  | { t: 'a'; items: Node[] }
  | { t: 's'; parts: Buffer[] }
  | { t: 'x'; text: string };

/** Builds a small tree of canonical pieces so keys can be sorted (and duplicates collapsed, last wins). */
class TreeBuilder implements JsonEvents {
  root: Node | null = null;
  private readonly stack: Node[] = [];
  private pendingKey: { key: Buffer; canonical: Buffer } | null = null;

  private attach(node: Node): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) this.root = node;
    else if (top.t === 'a') top.items.push(node);
    else if (top.t === 'o' && this.pendingKey) {
      // Python's dict keeps the last value of a repeated key.
      top.entries.set(this.pendingKey.key.toString('latin1'), { ...this.pendingKey, value: node });
      this.pendingKey = null;
    }
  }
  startContainer(isObject: boolean): void {
    const node: Node = isObject ? { t: 'o', entries: new Map() } : { t: 'a', items: [] };
    this.attach(node);
    this.stack.push(node);
  }
  endContainer(): void {
    this.stack.pop();
  }
  key(decoded: Buffer, canonical: Buffer): void {
    this.pendingKey = { key: decoded, canonical };
  }
  stringBegin(): void {
    const node: Node = { t: 's', parts: [] };
    this.attach(node);
    this.stack.push(node);
  }
  stringBytes(canonical: Uint8Array): void {
    const top = this.stack[this.stack.length - 1];
    if (top.t === 's') top.parts.push(Buffer.from(canonical));
  }
  stringEnd(): void {
    this.stack.pop();
  }
  scalar(canonical: string): void {
    this.attach({ t: 'x', text: canonical });
  }
}

/** Pushes items so they pop in order (no spread: arrays can be longer than the argument limit). */
function pushReversed<T>(work: T[], items: T[]): void {
  for (let i = items.length - 1; i >= 0; i--) work.push(items[i]);
}

/** Writes a node's canonical text without recursion (depth is bounded only by the tokenizer). */
function writeCanonical(root: Node, hash: Hash): void {
  const work: (Node | string | Buffer)[] = [root];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === 'string' || Buffer.isBuffer(item)) hash.update(item);
    else if (item.t === 'x') hash.update(item.text);
    else if (item.t === 's') pushReversed<Node | string | Buffer>(work, ['"', ...item.parts, '"']);
    else if (item.t === 'a') {
      const seq: (Node | string)[] = ['['];
      item.items.forEach((n, i) => (i > 0 ? seq.push(',', n) : seq.push(n)));
      seq.push(']');
      pushReversed<Node | string | Buffer>(work, seq);
    } else {
      const entries = [...item.entries.values()].sort((a, b) => Buffer.compare(a.key, b.key));
      const seq: (Node | string | Buffer)[] = ['{'];
      entries.forEach((e, i) => (i > 0 ? seq.push(',', '"', e.canonical, '":', e.value) : seq.push('"', e.canonical, '":', e.value)));
      seq.push('}');
      pushReversed(work, seq);
    }
  }
}

/** Canonical SHA-256 of a whole blob held in memory (sorts keys; used when streaming cannot). */
export function canonicalJsonSha256OfBuffer(bytes: Uint8Array): CanonicalDigest {
  const builder = new TreeBuilder();
  const tokenizer = new JsonTokenizer(builder);
  tokenizer.update(bytes);
  const error = tokenizer.finish();
  if (error !== null || builder.root === null) return { kind: 'invalid', error: error ?? 'empty input' };
  const hash = sha256();
  writeCanonical(builder.root, hash);
  return { kind: 'digest', digest: hash.digest('hex') };
}
