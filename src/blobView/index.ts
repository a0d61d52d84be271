import type * as vscode from 'vscode';
import type { TraceEditorApi } from '../editor';

/** Registers blob features (Open Blob virtual documents, blob links, the viewer's blob resolver). */
export function registerBlobFeatures(_context: vscode.ExtensionContext, _viewers: TraceEditorApi): void {
  // Filled in by the blob viewer work.
}
