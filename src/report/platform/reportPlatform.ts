/**
 * The core's platform seam (`src/core/io/platform.ts`) in the report's page, which `reportHost.ts` registers:
 * POSIX paths (the trace sits at one in-memory path), SHA-256 in TypeScript (the core hashes synchronously),
 * UTF-8 validation with the page's strict `TextDecoder`, and neither gzip (a report embeds the decompressed
 * content) nor worker threads (the page reads its trace on its one thread: `loadTrace`'s default of 0 workers).
 */
import type { Platform } from '../../core/io/platform';
import { posixPath } from './posixPath';
import { Sha256, sha256Hex } from './sha256';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export const reportPlatform: Platform = {
  path: posixPath,
  foldsCase: false,
  sha256: () => new Sha256(),
  sha256Hex,
  isUtf8(bytes) {
    try {
      strictUtf8.decode(bytes);
      return true;
    } catch {
      return false;
    }
  },
  createGunzip() {
    throw new Error('gzip is not available in a report');
  },
  parallelism: () => 1,
  startWorker() {
    throw new Error('worker threads are not available in a report');
  },
};
