import { platform } from './io/platform';
import { DigestAlgorithm } from './model';

/**
 * Content digests shared by the format verifiers and the blob store: 64-bit FNV-1a (what AgentLedger's Rust
 * runtime writes under a "sha256" label) and SHA-256, both incremental so large blobs can be hashed in chunks.
 */

const encoder = new TextEncoder();

/** UTF-8 bytes of a string (the bytes every hash in the trace formats is taken over). */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * Incremental 64-bit FNV-1a. The 64-bit state is kept in four 16-bit limbs so every intermediate product
 * stays a small integer: no BigInt per byte, which keeps hashing megabyte blobs fast.
 */
export class Fnv1a64 {
  // Offset basis 0xcbf29ce484222325, lowest limb first.
  private h0 = 0x2325;
  private h1 = 0x8422;
  private h2 = 0x9ce4;
  private h3 = 0xcbf2;

  /** Feeds more bytes; returns this for chaining. */
  update(bytes: Uint8Array): this {
    let h0 = this.h0;
    let h1 = this.h1;
    let h2 = this.h2;
    let h3 = this.h3;
    for (let i = 0; i < bytes.length; i++) {
      h0 ^= bytes[i];
      // Multiply by the prime 0x100000001b3 = 2^40 + 0x1b3, modulo 2^64.
      const t0 = h0 * 0x1b3;
      const t1 = h1 * 0x1b3 + (t0 >>> 16);
      const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
      const t3 = h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16);
      h0 = t0 & 0xffff;
      h1 = t1 & 0xffff;
      h2 = t2 & 0xffff;
      h3 = t3 & 0xffff;
    }
    this.h0 = h0;
    this.h1 = h1;
    this.h2 = h2;
    this.h3 = h3;
    return this;
  }

  /** Feeds the UTF-8 bytes of a string. */
  updateText(text: string): this {
    return this.update(utf8(text));
  }

  /** The digest so far as 16 lowercase hex digits (the state is not reset). */
  digestHex(): string {
    return hex4(this.h3) + hex4(this.h2) + hex4(this.h1) + hex4(this.h0);
  }
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

/** 64-bit FNV-1a of bytes, 16 lowercase hex digits (AgentLedger Rust `stable_hash`). */
export function fnv1a64Hex(bytes: Uint8Array): string {
  return new Fnv1a64().update(bytes).digestHex();
}

/** 64-bit FNV-1a of a string's UTF-8 bytes. */
export function fnv1a64HexOfText(text: string): string {
  return fnv1a64Hex(utf8(text));
}

/** SHA-256 of bytes, 64 lowercase hex digits. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return platform().sha256Hex(bytes);
}

/** An incremental hasher of either algorithm. */
export interface Digester {
  update(bytes: Uint8Array): Digester;
  digestHex(): string;
}

/** Creates an incremental hasher for an algorithm. */
export function createDigester(algorithm: DigestAlgorithm): Digester {
  if (algorithm === 'fnv1a64') return new Fnv1a64();
  const h = platform().sha256();
  let done: string | null = null;
  const d: Digester = {
    update(bytes) {
      h.update(bytes);
      return d;
    },
    digestHex() {
      // node's Hash cannot be digested twice; remember the first result.
      return (done ??= h.digest('hex'));
    },
  };
  return d;
}

/** Digest of bytes with the given algorithm. */
export function digestHex(algorithm: DigestAlgorithm, bytes: Uint8Array): string {
  return algorithm === 'fnv1a64' ? fnv1a64Hex(bytes) : sha256Hex(bytes);
}

/**
 * The algorithm a bare lowercase hex digest was made with, by its length: 16 hex = FNV-1a 64, 64 hex = SHA-256.
 * Labels such as `sha256:` are not trusted (AgentLedger's Rust runtime puts it on FNV digests).
 */
export function algorithmOfDigest(hex: string): DigestAlgorithm | null {
  if (/^[0-9a-f]{64}$/.test(hex)) return 'sha256';
  if (/^[0-9a-f]{16}$/.test(hex)) return 'fnv1a64';
  return null;
}

/** Strips a `sha256:` label or a `blob://sha256/` prefix and `.json` suffix, leaving the bare digest text. */
export function bareDigest(value: string): string {
  let v = value;
  if (v.startsWith('blob://sha256/')) v = v.slice('blob://sha256/'.length);
  else if (v.startsWith('sha256:')) v = v.slice('sha256:'.length);
  if (v.endsWith('.json')) v = v.slice(0, -'.json'.length);
  return v;
}
