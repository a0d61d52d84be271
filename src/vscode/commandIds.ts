/**
 * Every command the extension contributes, by what it does. Registration, the viewer's buttons, command
 * links and the package.json test all use these names, so an id is written once. No `vscode` import: the
 * unit test reads this list in plain Node.
 */
export const COMMANDS = {
  openInViewer: 'agentTrace.openInViewer',
  openAsText: 'agentTrace.openAsText',
  find: 'agentTrace.find',
  verifyChain: 'agentTrace.verifyChain',
  checkConformance: 'agentTrace.checkConformance',
  verifyBlobs: 'agentTrace.verifyBlobs',
  openBlob: 'agentTrace.openBlob',
  goToEvent: 'agentTrace.goToEvent',
  copyLinkToEvent: 'agentTrace.copyLinkToEvent',
  revealInViewer: 'agentTrace.revealInViewer',
  goToDefinitionInText: 'agentTrace.goToDefinitionInText',
  /** Internal: the link of a finding in the Problems panel (its rule code) reveals the finding's event. */
  showProblem: 'agentTrace.showProblem',
  sendToOtlp: 'agentTrace.sendToOtlp',
  copyAsMarkdown: 'agentTrace.copyAsMarkdown',
  exportMarkdown: 'agentTrace.exportMarkdown',
  exportHtmlReport: 'agentTrace.exportHtmlReport',
  selectForCompare: 'agentTrace.selectForCompare',
  compareWithSelected: 'agentTrace.compareWithSelected',
  compareWith: 'agentTrace.compareWith',
  /** The Agent Traces view: list the sessions again; a row's context menu. */
  refreshSessions: 'agentTrace.refreshSessions',
  openSession: 'agentTrace.openSession',
  revealSessionInOS: 'agentTrace.revealSessionInOS',
  copySessionPath: 'agentTrace.copySessionPath',
  verifyAllSessions: 'agentTrace.verifyAllSessions',
  checkAllSessions: 'agentTrace.checkAllSessions',
  compareSessions: 'agentTrace.compareSessions',
  exportSession: 'agentTrace.exportSession',
  /** Search Agent Sessions…: the Agent Traces view's title bar and the command palette. */
  searchSessions: 'agentTrace.searchSessions',
  /** The Agent Usage panel: tokens and cost over time across the listed sessions. */
  showUsage: 'agentTrace.showUsage',
} as const;

/** One command id. */
export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];
