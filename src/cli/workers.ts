import { UsageError } from './args';
import { defaultWorkers } from '../core/parallel/workerCount';

export { defaultWorkers };

/** The `--workers N` line of the commands' help. */
export const WORKERS_HELP = '  --workers N     worker threads that parse lines (default: all cores but one; 0 reads on one thread)';

/** Validates a `--workers` value: a whole number from 0 to 256; absent gives {@link defaultWorkers}. */
export function workersOption(value: string | undefined): number {
  if (value === undefined) return defaultWorkers();
  if (!/^\d{1,3}$/.test(value) || Number(value) > 256) throw new UsageError(`--workers needs a whole number from 0 to 256, not ${value}`);
  return Number(value);
}
