/**
 * Number and time formatting for rows, the header and the detail pane: the core's display module, the same
 * one the event labels and the CLI use, so the host and the webview never disagree on "4 min 5 s".
 */
export { formatBytes, formatCount, formatDuration, formatInt, formatOffset, formatTime, formatTokens, plural } from '../src/core/display';
