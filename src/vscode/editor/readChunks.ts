/**
 * Chunk size of the viewer's full read. The read runs on the extension host's thread and yields only between
 * chunks, so a row request waits for at most one chunk's parse: a quarter of the core's 1 MiB default keeps
 * that wait a few milliseconds (measured in test/bench/rowLatencyBench.ts) for a negligible cost in throughput.
 */
export const FULL_READ_CHUNK = 256 << 10;
