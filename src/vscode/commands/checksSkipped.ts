// vscode-free, so the viewer's tests use the same words.

/** Why checks did not run on open, and how to run them. */
export function checksSkippedMessage(bytes: number, maxMB: number): string {
  return `Checks were not run when the trace opened: it is ${Math.round(bytes / 1024 / 1024)} MB, over agentTrace.checkOnOpenMaxMB (${maxMB} MB). Run Verify Chain or Check Conformance from the viewer's toolbar or the Command Palette, or raise the setting.`;
}
