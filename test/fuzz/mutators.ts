/**
 * Mutations of real trace files for the fuzz suite: each takes a file's lines and a seeded random source and
 * returns new file bytes. They cover what torn writes, bad tools and hostile writers produce.
 */

/** A seeded random source (mulberry32): the same seed gives the same run. */
export class Rng {
  constructor(private state: number) {}
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

/** One mutation: its name, the new bytes, and whether every line stays where it was (no line added or removed). */
export interface Mutated {
  name: string;
  bytes: Buffer;
  inPlace: boolean;
}

type Mutator = (lines: Buffer[], rng: Rng) => { bytes: Buffer; inPlace: boolean };

const NL = Buffer.from('\n');
const join = (lines: Buffer[]): Buffer => Buffer.concat(lines.flatMap((l) => [l, NL]));
/** Replaces one line (chosen at random) with what `f` makes of it. */
const onLine = (f: (line: Buffer, rng: Rng) => Buffer, inPlace = true): Mutator => (lines, rng) => {
  const out = [...lines];
  const i = rng.int(out.length);
  out[i] = f(out[i], rng);
  return { bytes: join(out), inPlace };
};
const insertAt = (line: Buffer, rng: Rng, what: Buffer): Buffer => {
  const at = rng.int(line.length + 1);
  return Buffer.concat([line.subarray(0, at), what, line.subarray(at)]);
};
/** Rewrites the parsed value of a line; lines that are not JSON objects are left as they are. */
const onValue = (f: (o: Record<string, unknown>, rng: Rng) => unknown): Mutator => onLine((line, rng) => {
  let v: unknown;
  try {
    v = JSON.parse(line.toString('utf8'));
  } catch {
    return line;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return line;
  try {
    const out = f(v as Record<string, unknown>, rng);
    return Buffer.from(typeof out === 'string' ? out : JSON.stringify(out));
  } catch {
    return line; // nested too deep for JSON.stringify (an earlier deep-field mutation): left as it is
  }
});
const keysOf = (o: Record<string, unknown>): string[] => Object.keys(o);
const ID_FIELDS = ['id', 'uuid', 'event_id', 'span_id', 'spanId'];
const PARENT_FIELDS = ['parent_id', 'parentUuid', 'parent_span_id', 'parentSpanId'];
const HUGE_NUMBERS = ['1e308', '-1e308', '1e400', '18446744073709551616', '99999999999999999999999', '17000000000000000', '-0', '1e-400', '123456789012345678901234567890.5'];

/** A file system block: what a crash zeroes at once. */
export const BLOCK = 4096;
/** A copy of `bytes` with the block at `at` (up to {@link BLOCK} bytes, within the file) set to NUL. */
export function zeroBlock(bytes: Buffer, at: number): Buffer {
  const out = Buffer.from(bytes);
  out.fill(0, Math.min(at, out.length), Math.min(at + BLOCK, out.length));
  return out;
}

const MUTATORS: Record<string, Mutator> = {
  'byte-flip': onLine((line, rng) => {
    if (line.length === 0) return line;
    const out = Buffer.from(line);
    out[rng.int(out.length)] ^= 1 << rng.int(8);
    return out;
  }),
  truncate: (lines, rng) => {
    const all = join(lines);
    return { bytes: all.subarray(0, rng.int(all.length)), inPlace: false };
  },
  'invalid-utf8': onLine((line, rng) => insertAt(line, rng, Buffer.from(rng.pick([[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80]])))),
  nul: onLine((line, rng) => insertAt(line, rng, Buffer.from([0]))),
  'bom-mid': onLine((line) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), line])),
  'cr-lf-mix': (lines, rng) => {
    const parts: Buffer[] = [];
    for (const l of lines) parts.push(l, Buffer.from(rng.pick(['\n', '\r\n', '\r', '\n\r', '\r\r\n'])));
    return { bytes: Buffer.concat(parts), inPlace: false };
  },
  'deep-nesting': onLine((_line, rng) => {
    const n = 1000 + rng.int(9000);
    return Buffer.from(rng.next() < 0.5 ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n));
  }),
  'deep-field': onValue((o, rng) => {
    const n = 500 + rng.int(3000);
    return JSON.stringify(o).replace(/\}$/, `,"deep":${'['.repeat(n)}${']'.repeat(n)}}`);
  }),
  'huge-string': onValue((o, rng) => {
    const k = rng.pick(keysOf(o)) ?? 'x';
    return { ...o, [k]: 'x'.repeat(100_000 + rng.int(900_000)) };
  }),
  'huge-number': onValue((o, rng) => {
    const numeric = keysOf(o).filter((k) => typeof o[k] === 'number');
    const k = numeric.length ? rng.pick(numeric) : rng.pick(['seq', 'timestamp', 'occurred_at_ms', 'time']);
    return JSON.stringify({ ...o, [k]: '@@N@@' }).replace('"@@N@@"', rng.pick(HUGE_NUMBERS));
  }),
  'duplicate-key': onValue((o, rng) => {
    const k = rng.pick(keysOf(o)) ?? 'id';
    return JSON.stringify(o).replace(/^\{/, `{${JSON.stringify(k)}:${JSON.stringify(rng.pick([1, 'dup', null, [], {}]))},`);
  }),
  'lone-surrogate': onValue((o, rng) => {
    const strings = keysOf(o).filter((k) => typeof o[k] === 'string');
    const k = strings.length ? rng.pick(strings) : 'text';
    return JSON.stringify({ ...o, [k]: '@@S@@' }).replace('"@@S@@"', `"${rng.pick(['\\ud800', '\\udfff', 'a\\ud83d', '\\udc00x'])}"`);
  }),
  'wrong-type': onValue((o, rng) => {
    const k = rng.pick(keysOf(o)) ?? 'kind';
    return { ...o, [k]: rng.pick([null, 42, -1.5, 'text', true, [], {}, [1, 2], { nested: o[k] ?? 1 }]) };
  }),
  cycle: (lines, rng) => {
    const out = [...lines];
    const objs = out.map((l) => {
      try {
        const v = JSON.parse(l.toString('utf8'));
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    });
    const withId = objs.map((o, i) => [o, i] as const).filter(([o]) => o && ID_FIELDS.some((f) => typeof o[f] === 'string'));
    if (withId.length === 0) return { bytes: join(out), inPlace: true };
    const [a, ia] = rng.pick(withId);
    const [b, ib] = rng.pick(withId);
    const idA = ID_FIELDS.map((f) => a![f]).find((x) => typeof x === 'string');
    const idB = ID_FIELDS.map((f) => b![f]).find((x) => typeof x === 'string');
    const pf = PARENT_FIELDS.find((f) => f in a!) ?? 'parent_id';
    out[ia] = Buffer.from(JSON.stringify({ ...a, [pf]: idB }));
    out[ib] = Buffer.from(JSON.stringify({ ...objs[ib], [PARENT_FIELDS.find((f) => f in b!) ?? 'parent_id']: idA }));
    return { bytes: join(out), inPlace: true };
  },
  'fan-out': (lines, rng) => {
    const i = rng.int(lines.length);
    // Many children of one parent, up to about 4 MB of copies: enough fan-out, not a memory test.
    const n = Math.max(1, Math.min(50 + rng.int(500), Math.floor((4 << 20) / (lines[i].length + 1))));
    const out = [...lines.slice(0, i + 1), ...Array.from({ length: n }, () => lines[i]), ...lines.slice(i + 1)];
    return { bytes: join(out), inPlace: false };
  },
  // What a crash does to a file: ext4 keeps its size and zeroes the 4 KiB blocks it had not written (at the start,
  // in the middle, at the end), or the file is cut at any byte of a line. Zeroed lines run together (NUL is no
  // line break), so lines move.
  'zero-block-start': (lines) => ({ bytes: zeroBlock(join(lines), 0), inPlace: false }),
  'zero-block-middle': (lines, rng) => {
    const all = join(lines);
    return { bytes: zeroBlock(all, BLOCK * rng.int(Math.max(1, Math.ceil(all.length / BLOCK)))), inPlace: false };
  },
  'zero-block-end': (lines) => {
    const all = join(lines);
    return { bytes: zeroBlock(all, Math.max(0, all.length - BLOCK)), inPlace: false };
  },
  'cut-in-line': (lines, rng) => {
    const i = rng.int(lines.length);
    return { bytes: Buffer.concat([join(lines.slice(0, i)), lines[i].subarray(0, rng.int(lines[i].length + 1))]), inPlace: false };
  },
  'time-out-of-range': onValue((o, rng) => {
    const k = rng.pick(['timestamp', 'occurred_at_ms', 'time', 'ts', 'created_at', 'startTimeUnixNano']);
    return JSON.stringify({ ...o, [k]: '@@T@@' }).replace('"@@T@@"', rng.pick(['8.64e15', '8640000000000001', '1e300', '-1e20', '"+275760-09-13T00:00:00.001Z"']));
  }),
  // Names that are members of Object.prototype, as a model, a tool or an id (issue 41: a model named `constructor`
  // found Object's constructor as its price and the summary crashed).
  'prototype-name': onValue((o, rng) => {
    const name = rng.pick(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']);
    const text = JSON.stringify(o);
    if (/"model":"[^"]*"/.test(text)) return text.replace(/"model":"[^"]*"/g, `"model":${JSON.stringify(name)}`);
    const strings = keysOf(o).filter((k) => typeof o[k] === 'string');
    return { ...o, [strings.length ? rng.pick(strings) : 'model']: name };
  }),
};

/** The mutation names, in a fixed order. */
export const MUTATION_NAMES = Object.keys(MUTATORS);

/** Applies one to three mutations chosen by `rng` to a file's lines. */
export function mutate(source: Buffer, rng: Rng): Mutated {
  let lines = splitLf(source);
  if (lines.length === 0) lines = [Buffer.from('{}')];
  const names: string[] = [];
  let bytes = source;
  let inPlace = true;
  const count = 1 + (rng.next() < 0.3 ? rng.int(3) : 0);
  for (let k = 0; k < count; k++) {
    const name = rng.pick(MUTATION_NAMES);
    const r = MUTATORS[name](lines, rng);
    names.push(name);
    bytes = r.bytes;
    inPlace &&= r.inPlace;
    lines = splitLf(bytes);
  }
  return { name: names.join('+'), bytes, inPlace };
}

/** Lines split on `\n` only (how the source files were written); the last empty piece is dropped. */
export function splitLf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, start)) {
    out.push(bytes.subarray(start, i));
    start = i + 1;
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}
