/**
 * The core's platform seam (`src/core/io/platform.ts`) over Node: `node:path`, `node:crypto`'s native SHA-256,
 * `node:buffer`'s UTF-8 validator, `node:zlib`'s gunzip, `node:os` and `node:worker_threads`. What the CLI, the
 * extension host and the workers register (`./register.ts`).
 */
import { isUtf8 } from 'node:buffer';
import * as crypto from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { Platform, setPlatform, WorkerEntry, WorkerOptions, WorkerThread } from '../core/io/platform';

/** One-shot SHA-256 (`crypto.hash`, Node 20.12+) where available: it skips the Hash object per call. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }).hash;

/**
 * A worker's script: the bundled `<entry>.js` beside this bundle (`dist/`), or under tsx (tests) its TypeScript
 * entry `src/node/<entry>.ts` beside this file, which registers the Node platform and runs the core's worker body.
 */
function startWorker(entry: WorkerEntry, data: unknown, options: WorkerOptions = {}): WorkerThread {
  const resourceLimits = options.maxYoungGenerationSizeMb === undefined ? undefined : { maxYoungGenerationSizeMb: options.maxYoungGenerationSizeMb };
  const js = path.join(__dirname, `${entry}.js`);
  const w = existsSync(js)
    ? new Worker(js, { workerData: data, resourceLimits })
    : new Worker(path.join(__dirname, `${entry}.ts`), { workerData: data, resourceLimits, execArgv: ['--require', 'tsx/cjs'] });
  return {
    onMessage: (listener) => void w.on('message', listener),
    onError: (listener) => void w.on('error', listener),
    terminate: async () => void (await w.terminate()),
  };
}

export const nodePlatform: Platform = {
  path,
  foldsCase: process.platform === 'darwin' || process.platform === 'win32',
  sha256: () => crypto.createHash('sha256'),
  sha256Hex: oneShot ? (data) => oneShot('sha256', data, 'hex') : (data) => crypto.createHash('sha256').update(data).digest('hex'),
  isUtf8: (bytes) => isUtf8(bytes),
  createGunzip: (options) => createGunzip(options),
  parallelism: () => availableParallelism(),
  startWorker,
};

/** Registers the Node platform with the core. */
export function useNodePlatform(): void {
  setPlatform(nodePlatform);
}
