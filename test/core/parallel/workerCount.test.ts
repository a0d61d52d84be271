import { strict as assert } from 'node:assert';
import { availableParallelism } from 'node:os';
import { resolveWorkers } from '../../../src/core/parallel/workerCount';

describe('agentTrace.workers setting → worker threads', () => {
  it('-1, absent or not a whole number: all cores but one; 0 one thread; large values capped at 256', () => {
    const all = Math.max(0, availableParallelism() - 1);
    assert.deepEqual([-1, undefined, 1.5, Number.NaN].map(resolveWorkers), [all, all, all, all]);
    assert.deepEqual([0, 1, 3, 1000].map(resolveWorkers), [0, 1, 3, 256]);
  });
});
