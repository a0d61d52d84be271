/**
 * Runs a {@link ChecksJob} in a `node:worker_threads` worker, so reading and checking a trace never holds
 * the extension host's thread while the viewer asks for rows. Falls back to the same job in the thread
 * when no worker script is given or it cannot start (unit tests run from sources, odd hosts).
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { ChecksJob, ChecksJobReply, runChecksJob } from './checksJob';

/** The worker's script: dist/checksWorker.js in the extension, or a .ts entry with a loader in tests. */
export interface ChecksWorkerScript {
  file: string;
  execArgv?: string[];
}

/** How often a running worker is asked whether the caller cancelled (terminating it is the cancellation). */
const CANCEL_POLL_MS = 100;

/**
 * Runs `job`, handing each reply to `onReply`; resolves when the job is done, failed or was cancelled.
 * `ranIn` says where it ran (figures and tests).
 */
export async function runChecksOffThread(
  job: ChecksJob,
  script: ChecksWorkerScript | null,
  onReply: (reply: ChecksJobReply) => void,
  isCancelled: () => boolean = () => false,
): Promise<{ ranIn: 'worker' | 'thread' }> {
  if (script && existsSync(script.file)) {
    const started = await inWorker(job, script, onReply, isCancelled);
    if (started) return { ranIn: 'worker' };
  }
  // `done` only ends a worker's conversation; callers see results and errors alike from both paths.
  await runChecksJob(job, (reply) => reply.type !== 'done' && onReply(reply), isCancelled);
  return { ranIn: 'thread' };
}

/** False when the worker failed before its first reply (then the caller runs the job in the thread). */
function inWorker(job: ChecksJob, script: ChecksWorkerScript, onReply: (reply: ChecksJobReply) => void, isCancelled: () => boolean): Promise<boolean> {
  return new Promise((resolve) => {
    let replied = false;
    let settled = false;
    let worker: Worker;
    try {
      worker = new Worker(script.file, { execArgv: script.execArgv });
    } catch {
      return resolve(false);
    }
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      void worker.terminate();
      resolve(ok);
    };
    const poll = setInterval(() => {
      if (isCancelled()) finish(true);
    }, CANCEL_POLL_MS);
    worker.on('message', (reply: ChecksJobReply) => {
      if (settled) return;
      replied = true;
      if (reply.type === 'done') return finish(true);
      onReply(reply);
      if (reply.type === 'error') finish(true);
    });
    worker.on('error', (err) => {
      if (replied) onReply({ type: 'error', message: err.message });
      finish(replied);
    });
    worker.on('exit', () => finish(replied));
    worker.postMessage(job);
  });
}
