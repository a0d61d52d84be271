import { platform } from '../io/platform';

/** Worker threads by default: every core but one (that one runs the format's cross-line pass). */
export function defaultWorkers(): number {
  return Math.max(0, platform().parallelism() - 1);
}

/**
 * The `workers` option of `loadTrace` for a setting value (`agentTrace.workers`): -1 (or anything not a whole
 * number ≥ 0) means the default, all cores but one; 0 reads on one thread; larger values are capped at 256.
 */
export function resolveWorkers(setting: number | undefined): number {
  if (setting === undefined || !Number.isInteger(setting) || setting < 0) return defaultWorkers();
  return Math.min(256, setting);
}
