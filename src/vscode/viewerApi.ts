import type * as vscode from 'vscode';
import type { CheckResult } from '../core/checks/runChecks';
import type { CheckMode } from '../core/rules/types';
import type { TraceModel } from '../core/loadTrace';

/** What commands and language features need from the open trace viewers (implemented by src/editor). */
export interface TraceViewerApi {
  /** The trace shown in the active viewer, if a viewer is active. */
  activeUri(): vscode.Uri | undefined;
  /**
   * Brings the open viewer of `uri` to the front, in its own editor group (a second `openWith` from a text editor
   * in another group opened a second tab); false when no viewer shows the file.
   */
  showViewer?(uri: vscode.Uri): boolean;
  /** Reveals and selects the event on `line` in the viewer of `uri`; false when no viewer shows it. */
  revealLine(uri: vscode.Uri, line: number): Promise<boolean>;
  /**
   * Selects the event on `line` in the open viewer of `uri` without bringing it forward or taking the focus; false
   * when no viewer shows the file.
   */
  selectLine?(uri: vscode.Uri, line: number): boolean;
  /** Shows verification or conformance results in the viewer of `uri` (badges, header, Checks list). */
  showCheckResults(uri: vscode.Uri, mode: CheckMode, result: CheckResult): void;
  /**
   * The complete model a viewer already holds for `uri` (waiting for its first full read), or undefined
   * when no viewer shows the file: checks reuse it instead of reading the file a second time.
   */
  loadedModel(uri: vscode.Uri): Promise<TraceModel | undefined>;
  /** The line of the event selected in the most recently active viewer of `uri`, if one shows it and has a selection. */
  selectedLine(uri: vscode.Uri): number | undefined;
  /** Fires when a viewer finished loading a trace. */
  onDidOpenTrace: vscode.Event<vscode.Uri>;
  /** Tells the viewers of `uri` that checks were not run on open, and why. */
  showChecksSkipped?(uri: vscode.Uri, message: string): void;
  /** Fires when a viewer took in events appended to its trace (live tail): earlier check results are outdated. */
  onDidAppend: vscode.Event<vscode.Uri>;
  /**
   * Fires when the checks that rode along a viewer's read of its trace (agentTrace.checkOnOpen) finished a mode; the
   * viewer shows the result already, Problems takes it from here.
   */
  onDidCheckOnOpen: vscode.Event<{ uri: vscode.Uri; mode: CheckMode; result: CheckResult; model: TraceModel }>;
}
