/**
 * Checks during live tail: when a viewer takes in appended events, the results of earlier checks describe a
 * shorter trace. Traces that are checked on open are checked again (throttled, on the newest model); the
 * others keep their results marked outdated, in the viewer's header (by the document) and in Problems.
 */
import * as vscode from 'vscode';
import type { TraceViewerApi } from '../viewerApi';
import type { CheckCommands } from './checkCommands';
import type { TraceProblems } from './problems';
import { setting } from '../settings';

/** Appends come in bursts while an agent works: at most one re-run per trace in this interval. */
export const RECHECK_MS = 1000;

/** Whether a trace of `size` bytes is checked automatically (agentTrace.checkOnOpen and its size cap). */
export function autoChecks(size: number): boolean {
  return setting('checkOnOpen') && size <= setting('checkOnOpenMaxMB') * 1024 * 1024;
}

/** Runs verification and conformance again after appends, or marks their findings outdated. */
export function recheckOnAppend(viewers: TraceViewerApi, checks: CheckCommands, problems: TraceProblems): vscode.Disposable {
  const pending = new Map<string, NodeJS.Timeout>();
  const rerun = async (uri: vscode.Uri) => {
    pending.delete(uri.toString());
    const st = await vscode.workspace.fs.stat(uri).then(undefined, () => undefined);
    if (!st) return;
    if (!autoChecks(st.size)) return problems.markStale(uri);
    await checks.runModes(uri, ['verify', 'check']);
  };
  const sub = viewers.onDidAppend((uri) => {
    if (uri.scheme !== 'file' || pending.has(uri.toString())) return;
    pending.set(uri.toString(), setTimeout(() => void rerun(uri), RECHECK_MS));
  });
  return {
    dispose: () => {
      sub.dispose();
      for (const t of pending.values()) clearTimeout(t);
      pending.clear();
    },
  };
}
