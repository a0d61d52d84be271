/**
 * SHA-256 (FIPS 180-4) in TypeScript, for the report's page: the core hashes synchronously (lumen's labels and
 * chain links hash every line while it loads), which Web Crypto's `digest` (a promise) cannot do. Incremental,
 * like Node's `Hash`; text is hashed as its UTF-8 bytes (a lone surrogate as U+FFFD, as Node encodes it).
 */
import type { Hash } from '../../core/io/platform';

const K = Int32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);

const encoder = new TextEncoder();

export class Sha256 implements Hash {
  private readonly h = Int32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
  private readonly w = new Int32Array(64);
  /** Bytes of the block not yet full. */
  private readonly block = new Uint8Array(64);
  private used = 0;
  /** Bytes hashed so far. */
  private length = 0;
  private finished = false;

  update(data: string | Uint8Array): this {
    if (this.finished) throw new Error('the hash was already digested');
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    this.length += bytes.length;
    let i = 0;
    if (this.used > 0) {
      i = Math.min(64 - this.used, bytes.length);
      this.block.set(bytes.subarray(0, i), this.used);
      this.used += i;
      if (this.used < 64) return this;
      this.compress(this.block, 0);
      this.used = 0;
    }
    for (; i + 64 <= bytes.length; i += 64) this.compress(bytes, i);
    if (i < bytes.length) {
      this.block.set(bytes.subarray(i), 0);
      this.used = bytes.length - i;
    }
    return this;
  }

  digest(encoding: 'hex'): string {
    if (this.finished) throw new Error('the hash was already digested');
    if (encoding !== 'hex') throw new Error(`digest encoding ${String(encoding)} is not supported`);
    this.finished = true;
    const b = this.block;
    b[this.used++] = 0x80;
    if (this.used > 56) {
      b.fill(0, this.used);
      this.compress(b, 0);
      this.used = 0;
    }
    b.fill(0, this.used, 56);
    const bits = this.length * 8;
    const hi = Math.floor(bits / 0x100000000);
    const lo = bits >>> 0;
    for (let k = 0; k < 4; k++) {
      b[56 + k] = hi >>> (24 - 8 * k);
      b[60 + k] = lo >>> (24 - 8 * k);
    }
    this.compress(b, 0);
    let hex = '';
    for (let k = 0; k < 8; k++) hex += (this.h[k] >>> 0).toString(16).padStart(8, '0');
    return hex;
  }

  private compress(bytes: Uint8Array, o: number): void {
    const w = this.w;
    for (let t = 0; t < 16; t++, o += 4) w[t] = (bytes[o] << 24) | (bytes[o + 1] << 16) | (bytes[o + 2] << 8) | bytes[o + 3];
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15];
      const y = w[t - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    const h = this.h;
    let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (let t = 0; t < 64; t++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (hh + s1 + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0] + a) | 0;
    h[1] = (h[1] + b) | 0;
    h[2] = (h[2] + c) | 0;
    h[3] = (h[3] + d) | 0;
    h[4] = (h[4] + e) | 0;
    h[5] = (h[5] + f) | 0;
    h[6] = (h[6] + g) | 0;
    h[7] = (h[7] + hh) | 0;
  }
}

/** Lowercase hex SHA-256 of a text's UTF-8 bytes or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return new Sha256().update(data).digest('hex');
}
