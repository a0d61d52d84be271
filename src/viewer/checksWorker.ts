/**
 * Entry of the checks worker (bundled as dist/checksWorker.js): takes one {@link ChecksJob} from its parent,
 * posts each reply and exits. Cancellation is the parent terminating the worker.
 */
import '../node/register';
import { parentPort } from 'node:worker_threads';
import { ChecksJob, ChecksJobReply, runChecksJob } from './checksJob';

const port = parentPort;
if (port) {
  port.once('message', (job: ChecksJob) => {
    void runChecksJob(job, (reply: ChecksJobReply) => port.postMessage(reply)).finally(() => port.close());
  });
}
