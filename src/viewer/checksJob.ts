/**
 * One run of the automatic checks as plain data in and out, so it can run in a `node:worker_threads`
 * worker (checksWorker.ts) and keep the extension host's thread free for row requests while a trace is
 * verified and checked. Pure of `vscode`; the same function runs in the thread when no worker can start.
 */
import { CheckResult, RuleSetting } from '../core/checks/runChecks';
import { runChecks } from '../core/formatRules';
import type { CheckMode } from '../core/rules/types';
import { loadTrace, TraceModel } from '../core/loadTrace';

/** What a checks worker is asked to do: read one trace and run the given modes in order. */
export interface ChecksJob {
  path: string;
  modes: CheckMode[];
  /** The user's `agentTrace.rules` setting. */
  rules: Record<string, RuleSetting>;
  /** Keep only findings whose rule id starts with this (Verify Blobs: `blob/`); a prefix, since functions cannot cross threads. */
  rulePrefix?: string;
  /** Where blobs are looked for besides the format's own folders: the `agentTrace.blobRoots` setting and the workspace folders. */
  blobRoots?: { extraRoots: readonly string[]; workspaceFolders: readonly string[] };
}

/** One message back from a job: a mode's result with the lengths of its finding lines, or why the job failed. */
export type ChecksJobReply =
  | { type: 'result'; mode: CheckMode; result: CheckResult; lineLengths: [line: number, length: number][] }
  | { type: 'error'; message: string }
  | { type: 'done' };

/**
 * Reads the trace once and runs each mode of `job` over it, handing every reply to `send` as soon as it
 * exists (verification before conformance, so the first chip shows early). Errors become an `error` reply.
 */
export async function runChecksJob(job: ChecksJob, send: (reply: ChecksJobReply) => void, isCancelled?: () => boolean): Promise<void> {
  try {
    const model = await loadTrace(job.path, { isCancelled });
    if (model.cancelled) return send({ type: 'done' });
    const ruleFilter = job.rulePrefix !== undefined ? (rule: string) => rule.startsWith(job.rulePrefix!) : undefined;
    for (const mode of job.modes) {
      const result = await runChecks(model, mode, { rules: job.rules, isCancelled, ruleFilter, blobOptions: job.blobRoots });
      if (result.cancelled) return send({ type: 'done' });
      send({ type: 'result', mode, result, lineLengths: findingLineLengths(model, result) });
    }
    send({ type: 'done' });
  } catch (err) {
    send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

/** Lengths of the lines that have findings (diagnostic ranges), without a map over every event. */
export function findingLineLengths(model: TraceModel, result: CheckResult): [number, number][] {
  const wanted = new Set(result.findings.map((f) => f.line));
  const out: [number, number][] = [];
  if (wanted.size === 0) return out;
  for (const m of model.malformed) if (wanted.has(m.line)) out.push([m.line, m.length]);
  for (let i = 0; i < model.events.size && out.length < wanted.size; i++) {
    const line = model.events.lineOf(i);
    if (wanted.has(line)) out.push([line, model.events.lengthOf(i)]);
  }
  return out;
}
