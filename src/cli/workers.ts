import { UsageError } from './args';
import { defaultWorkers } from '../core/parallel/workerCount';

export { defaultWorkers };

/** The `--workers N` line of the commands' help. */
export const WORKERS_HELP = '  --workers N     worker threads that parse lines of a large lumen trace (default 0: one thread;\n                  auto: all cores but one). The output is the same either way.';

/**
 * Validates a `--workers` value: a whole number from 0 to 256, or `auto` ({@link defaultWorkers}). Absent
 * gives 0: on the 2-core machine the bench runs on, one worker cost about 65% more CPU than it saved and
 * verify took longer, so threads are opt-in until they pay for themselves.
 */
export function workersOption(value: string | undefined): number {
  if (value === undefined) return 0;
  if (value === 'auto') return defaultWorkers();
  if (!/^\d{1,3}$/.test(value) || Number(value) > 256) throw new UsageError(`--workers needs a whole number from 0 to 256 or auto, not ${value}`);
  return Number(value);
}
