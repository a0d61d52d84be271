/**
 * Whether bytes hold a control character (0x00–0x1F), which JSON.parse refuses inside a string: tested four bytes
 * at a time through a 32-bit view of the buffer's memory, as a loop over each byte cost four times as much.
 */

/** The 32-bit view of the last buffer memory asked about (lines are views of a few read buffers). */
let lastMemory: ArrayBufferLike | null = null;
let lastWords: Uint32Array<ArrayBufferLike> = new Uint32Array(0);

export function hasControlByte(b: Uint8Array): boolean {
  const memory = b.buffer;
  if (memory !== lastMemory) {
    lastMemory = memory;
    lastWords = new Uint32Array(memory, 0, memory.byteLength >>> 2);
  }
  const words = lastWords;
  const start = b.byteOffset;
  const end = start + b.length;
  // Bytes before the first whole word and after the last one, one by one.
  let i = 0;
  for (; i < b.length && ((start + i) & 3) !== 0; i++) if (b[i] < 0x20) return true;
  const wordEnd = end >>> 2;
  for (let w = (start + i) >>> 2; w < wordEnd; w++) {
    const x = words[w];
    // Sets a lane's top bit for a byte below 0x20 (a borrow from a lower lane only follows one): never misses one,
    // and a hit is confirmed byte by byte.
    if (((x - 0x20202020) & ~x & 0x80808080) !== 0) {
      for (let k = (w << 2) - start; k < (w << 2) - start + 4; k++) if (b[k] < 0x20) return true;
    }
  }
  for (i = Math.max(i, (wordEnd << 2) - start); i < b.length; i++) if (b[i] < 0x20) return true;
  return false;
}
