/**
 * Entry of the line-checks worker (bundled as dist/lineChecksWorker.js): runs one {@link LineChecksJob} from its
 * parent and posts the findings back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LineChecksJob, LineChecksReply, runLineChecks } from './lineChecks';

runLineChecks(workerData as LineChecksJob).then(
  (findings) => parentPort!.postMessage({ findings } satisfies LineChecksReply),
  (err: unknown) => parentPort!.postMessage({ error: err instanceof Error ? err.stack ?? err.message : String(err) } satisfies LineChecksReply),
);
