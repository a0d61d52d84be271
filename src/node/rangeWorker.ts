/**
 * The range-reading worker's entry (`dist/rangeWorker.js`): registers the Node file system and platform, then runs
 * the core's worker body (`src/core/parallel/rangeWorker.ts`) on the job it was started with, posting to its parent.
 */
import './register';
import { parentPort, workerData } from 'node:worker_threads';
import type { RangeJob } from '../core/parallel/rangeMessages';
import { runRangeWorker } from '../core/parallel/rangeWorker';

void runRangeWorker(workerData as RangeJob, parentPort!);
