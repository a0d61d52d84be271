// node:worker_threads in the report page: a report reads its embedded trace on the page's one thread
// (loadTrace's default of 0 workers), so the parallel reader is never started there.
export class Worker {
  constructor() {
    throw new Error('worker threads are not available in a report');
  }
}
export const parentPort = null;
export const workerData = undefined;
