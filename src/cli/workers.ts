import { UsageError } from './args';
import { defaultWorkers } from '../core/parallel/workerCount';

export { defaultWorkers };

/** The `--workers N` line of the commands' help. */
export const WORKERS_HELP = '  --workers N     worker threads that read a large lumen trace beside this one, in newline-aligned\n                  pieces (default 0: one thread; auto: all cores but one). The output is the same either way.';

/**
 * Validates a `--workers` value: a whole number from 0 to 256, or `auto` ({@link defaultWorkers}). Absent
 * gives 0, by measurement on the 2-core machine the bench runs on (shared, load 10–16): with one range worker,
 * summary, verify and check of the bench's 1M-event lumen trace took 40–70% more CPU time in all and longer
 * wall time than one thread, so threads are opt-in until they pay for themselves (`npm run bench cliBench`).
 */
export function workersOption(value: string | undefined): number {
  if (value === undefined) return 0;
  if (value === 'auto') return defaultWorkers();
  if (!/^\d{1,3}$/.test(value) || Number(value) > 256) throw new UsageError(`--workers needs a whole number from 0 to 256 or auto, not ${value}`);
  return Number(value);
}
