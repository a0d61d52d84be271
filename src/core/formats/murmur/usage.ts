import { num, Obj } from '../common';
import type { UsageDraft } from '../../usageTypes';

/**
 * murmur's usage facts: an `inference` reports its own call (provider-reported cache and thinking tokens beside
 * the runtime's accounting), `task_end` sums its task's turns (an aggregate of its parent task's subtree, which
 * must not add to them), `session_end` is the session's totals line and `harness_retry` records a retry of
 * the task.
 */
export function murmurUsage(type: string, o: Obj): UsageDraft | undefined {
  switch (type) {
    case 'inference': {
      const u: UsageDraft = { cacheRead: num(o, 'cached_tokens'), cacheWrite: num(o, 'cache_write_tokens'), reasoning: num(o, 'thinking_tokens') };
      return u.cacheRead !== null || u.cacheWrite !== null || u.reasoning !== null ? u : undefined;
    }
    case 'task_end':
      return { source: 'aggregate', covers: 'parent', input: num(o, 'input_tokens'), output: num(o, 'output_tokens') };
    case 'session_end':
      return { source: 'totals', input: num(o, 'total_input_tokens'), output: num(o, 'total_output_tokens') };
    case 'harness_retry':
      return { retry: { attempt: num(o, 'attempt') } };
    default:
      return undefined;
  }
}
