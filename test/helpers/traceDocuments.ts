// A TraceDocument over the fake VS Code, recording what it tells its viewers (for the adapter tests).
import { fake, installFakeVscode, Uri } from './fakeVscode';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { TraceDocument } = require('../../src/vscode/editor/traceDocument') as typeof import('../../src/vscode/editor/traceDocument');
type DocumentEvent = import('../../src/vscode/editor/traceDocument').DocumentEvent;

/** The document settings as the fake configuration holds them now. */
export const documentSettings = () => ({ maxFileSizeMB: fake.config.maxFileSizeMB as number, liveUpdates: fake.config.liveUpdates as boolean });

/** A document for `file` (not loaded yet), every event it fires, and the last event of a type. */
export function openDocument(file: string) {
  const doc = new TraceDocument(Uri.file(file) as never, documentSettings);
  const events: DocumentEvent[] = [];
  doc.onDidChange((e) => events.push(e));
  const last = <T extends DocumentEvent['type']>(type: T) => [...events].reverse().find((e) => e.type === type) as Extract<DocumentEvent, { type: T }> | undefined;
  return { doc, events, last };
}
