/**
 * A SIMD scan for two bytes of a needle at their distance, 16 positions at a time, in WebAssembly (no native
 * addon, no build step: the module is a few dozen bytes written out below). This is the "packed pair" idea of
 * fast substring search: a needle's two rarest bytes, tested together, rule out nearly every position, and the
 * few candidates left are checked in full by the caller. Where WebAssembly SIMD is missing, {@link pairScanner}
 * returns null and the caller keeps its JavaScript search.
 *
 * Text searched must be in the module's memory: {@link takeScanBuffer} hands out read buffers inside it (a read
 * lands there directly), and other text is copied into a scratch region first.
 */
import { Buffer } from 'buffer';

/** Read buffers inside the memory: enough for the reads find keeps in flight, a few finds at once. */
const SLOTS = 8;
/** One slot: a 1 MiB read chunk and up to 64 KiB of the chunk before it. */
export const SLOT_BYTES = (1 << 20) + (1 << 16);
const PAGE = 1 << 16;

/**
 * `scan(start, limit, d, or1, b1, or2, b2)`: the first position `i >= start` with `i + d < limit`,
 * `(mem[i] | or1) === b1` and `(mem[i + d] | or2) === b2`, or -1. `or` is 0x20 to fold an ASCII letter
 * (then `b` is its lower case), else 0.
 */
export type PairScan = (start: number, limit: number, d: number, or1: number, b1: number, or2: number, b2: number) => number;

/** The part of the WebAssembly API used here: src/core's lib has no DOM types, where TypeScript declares it. */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
declare const WebAssembly: {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
} | undefined;

interface Scanner {
  scan: PairScan;
  memory: WasmMemory;
  /** Free slot offsets; the scratch region follows the slots. */
  free: number[];
  scratch: number;
}

let scanner: Scanner | null | undefined;

/** The scanner, built on first use; null where WebAssembly SIMD is not available. */
export function pairScanner(): Scanner | null {
  if (scanner !== undefined) return scanner;
  scanner = null;
  try {
    const pages = Math.ceil(((SLOTS + 1) * SLOT_BYTES) / PAGE);
    const bytes = moduleBytes(pages);
    if (typeof WebAssembly === 'undefined' || !WebAssembly.validate(bytes)) return null;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    const memory = instance.exports.memory as WasmMemory;
    scanner = { scan: instance.exports.scan as PairScan, memory, free: Array.from({ length: SLOTS }, (_, k) => k * SLOT_BYTES), scratch: SLOTS * SLOT_BYTES };
  } catch {
    scanner = null;
  }
  return scanner;
}

/** A buffer of `bytes` inside the scanner's memory, or null (no scanner, too big, or every slot in use). */
export function takeScanBuffer(bytes: number): Buffer | null {
  const s = pairScanner();
  if (!s || bytes > SLOT_BYTES || s.free.length === 0) return null;
  return Buffer.from(s.memory.buffer, s.free.pop()!, bytes);
}

/** Gives back a buffer {@link takeScanBuffer} handed out; true when it was one. */
export function giveScanBuffer(buf: Buffer): boolean {
  const s = scanner;
  if (!s || buf.buffer !== s.memory.buffer || buf.byteOffset >= s.scratch) return false;
  s.free.push(buf.byteOffset);
  return true;
}

/**
 * Where `hay[0, end)` is in the scanner's memory: its own place for a buffer handed out by
 * {@link takeScanBuffer}, else a copy in the scratch region (valid until the next call); -1 when it does not fit.
 */
export function placeInMemory(s: Scanner, hay: Buffer, end: number): number {
  if (hay.buffer === s.memory.buffer) return hay.byteOffset;
  if (end > SLOT_BYTES) return -1;
  new Uint8Array(s.memory.buffer, s.scratch, end).set(hay.subarray(0, end));
  return s.scratch;
}

// The module, opcode by opcode (WebAssembly binary format 1.0 with the SIMD proposal).
const I32 = 0x7f;
const V128 = 0x7b;
const [BLOCK, LOOP, IF, END, BR, BR_IF, RETURN] = [0x02, 0x03, 0x04, 0x0b, 0x0c, 0x0d, 0x0f];
const [GET, SET, TEE] = [0x20, 0x21, 0x22];
const [LOAD8_U, CONST, EQ, GE_U, GT_U, CTZ, ADD, AND, OR] = [0x2d, 0x41, 0x46, 0x4f, 0x4b, 0x68, 0x6a, 0x71, 0x72];
const simd = (op: number) => [0xfd, op];
const [V_LOAD, SPLAT, V_EQ, V_AND, V_OR, BITMASK] = [simd(0x00), simd(0x0f), simd(0x23), simd(0x4e), simd(0x50), simd(0x64)];
const VOID = 0x40;

// Locals: the parameters, then four vectors (the splatted or1, b1, or2, b2) and the mask.
const [start, limit, d, or1, b1, or2, b2] = [0, 1, 2, 3, 4, 5, 6];
const [vOr1, vB1, vOr2, vB2, mask] = [7, 8, 9, 10, 11];

function body(): number[] {
  const splat = (from: number, to: number) => [GET, from, ...SPLAT, SET, to];
  const vLoadFold = (plusD: boolean, vOr: number, vB: number) => [GET, start, ...(plusD ? [GET, d, ADD] : []), ...V_LOAD, 0, 0, GET, vOr, ...V_OR, GET, vB, ...V_EQ];
  const byteFold = (plusD: boolean, o: number, b: number) => [GET, start, ...(plusD ? [GET, d, ADD] : []), LOAD8_U, 0, 0, GET, o, OR, GET, b, EQ];
  const step = (n: number) => [GET, start, CONST, n, ADD, SET, start];
  return [
    ...splat(or1, vOr1), ...splat(b1, vB1), ...splat(or2, vOr2), ...splat(b2, vB2),
    // 16 positions at a time while both loads stay below the limit.
    BLOCK, VOID, LOOP, VOID,
    GET, start, GET, d, ADD, CONST, 16, ADD, GET, limit, GT_U, BR_IF, 1,
    ...vLoadFold(false, vOr1, vB1), ...vLoadFold(true, vOr2, vB2), ...V_AND, ...BITMASK, TEE, mask,
    IF, VOID, GET, start, GET, mask, CTZ, ADD, RETURN, END,
    ...step(16), BR, 0,
    END, END,
    // The last few positions one at a time.
    BLOCK, VOID, LOOP, VOID,
    GET, start, GET, d, ADD, GET, limit, GE_U, BR_IF, 1,
    ...byteFold(false, or1, b1), ...byteFold(true, or2, b2), AND,
    IF, VOID, GET, start, RETURN, END,
    ...step(1), BR, 0,
    END, END,
    CONST, 0x7f, // -1
  ];
}

function moduleBytes(pages: number): Uint8Array<ArrayBuffer> {
  const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];
  const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  const code = [2, 4, V128, 1, I32, ...body(), END];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 7, I32, I32, I32, I32, I32, I32, I32, 1, I32]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, ...uleb(pages)]),
    ...section(7, [2, ...name('scan'), 0x00, 0, ...name('memory'), 0x02, 0]),
    ...section(10, [1, ...uleb(code.length), ...code]),
  ]);
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
