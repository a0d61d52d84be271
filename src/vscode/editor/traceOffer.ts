/**
 * A trace opened as text says so: when the active text editor shows a `.jsonl`, `.ndjson` or `.json` file that the
 * viewer does not open by its name and whose head is a runtime's format (`src/viewer/traceOffer.ts`, the one
 * sniffer), the context key `agentTrace.isTrace` shows the editor title's "Open in Agent Trace Viewer" button, and
 * once per file a non-modal notification offers the viewer: Open in Trace Viewer, Always for <format> (remembered
 * in globalState: such files then open in the viewer, once each per window, so Open as Text still works), Not now.
 * The files offered are remembered in workspaceState; `agentTrace.offerViewer` turns the notification off.
 */
import * as vscode from 'vscode';
import { TraceOffer, traceOfferFor } from '../../viewer/traceOffer';
import { setting } from '../settings';
import { switchToViewer } from './switchView';

/** The context key of the editor title's button. */
export const IS_TRACE_CONTEXT = 'agentTrace.isTrace';
/** workspaceState: the files the notification was shown for. */
export const OFFERED_KEY = 'agentTrace.offeredFiles';
/** globalState: the formats the user always opens in the viewer. */
export const ALWAYS_KEY = 'agentTrace.alwaysOpenFormats';
/** Files remembered as offered, at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 1000;

export const OFFER_OPEN = 'Open in Trace Viewer';
export const OFFER_LATER = 'Not now';
export const offerAlwaysLabel = (offer: TraceOffer): string => `Always for ${offer.format}`;

/** Watches the active text editor and offers the viewer for traces opened as text. */
export function registerTraceOffer(context: Pick<vscode.ExtensionContext, 'workspaceState' | 'globalState' | 'subscriptions'>): { settled: () => Promise<void> } {
  const known = new Map<string, Promise<TraceOffer | null>>();
  /** Files opened in the viewer by "Always" in this window: opened as text again afterwards, they stay text. */
  const autoOpened = new Set<string>();
  let last: Promise<void> = Promise.resolve();

  const onEditor = async (editor: vscode.TextEditor | undefined): Promise<void> => {
    const uri = editor?.document.uri;
    if (!uri || uri.scheme !== 'file') return setContext(false);
    const key = uri.toString();
    let pending = known.get(key);
    if (!pending) known.set(key, (pending = traceOfferFor(uri.fsPath).catch(() => null)));
    const offer = await pending;
    // The user moved on while the head was read.
    if (vscode.window.activeTextEditor?.document.uri.toString() !== key) return;
    await setContext(offer !== null);
    if (!offer || !setting('offerViewer')) return;
    if (context.globalState.get<string[]>(ALWAYS_KEY, []).includes(offer.format)) {
      if (autoOpened.has(key)) return;
      autoOpened.add(key);
      return switchToViewer(uri);
    }
    const offered = context.workspaceState.get<string[]>(OFFERED_KEY, []);
    if (offered.includes(key)) return;
    await context.workspaceState.update(OFFERED_KEY, [...offered, key].slice(-MAX_REMEMBERED));
    const always = offerAlwaysLabel(offer);
    const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
    // Not awaited: the next editor is looked at while the notification waits for an answer.
    answers.push(
      Promise.resolve(vscode.window.showInformationMessage(`${name} is a ${offer.format} trace (${offer.title}). Open it in the Agent Trace Viewer?`, OFFER_OPEN, always, OFFER_LATER)).then(async (answer) => {
        if (answer === always) {
          await context.globalState.update(ALWAYS_KEY, [...new Set([...context.globalState.get<string[]>(ALWAYS_KEY, []), offer.format])]);
          autoOpened.add(key);
        }
        if (answer === OFFER_OPEN || answer === always) await switchToViewer(uri);
      }),
    );
  };
  const answers: Promise<void>[] = [];
  const run = (editor: vscode.TextEditor | undefined) => (last = last.then(() => onEditor(editor)).catch(() => undefined));

  context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(run));
  void run(vscode.window.activeTextEditor);
  // For tests: the editors looked at so far, and the answers to their notifications, handled.
  return { settled: async () => { await last; await Promise.all(answers.splice(0)); } };
}

function setContext(on: boolean): Promise<void> {
  return Promise.resolve(vscode.commands.executeCommand('setContext', IS_TRACE_CONTEXT, on)).then(() => undefined);
}
