/**
 * The format names of the public contract (CLI output, settings, rule ids). The registry, `FORMATS` in
 * `formats.ts`, must have exactly these keys (the compiler checks it); this list lives apart so the browser
 * side can name formats without importing every format's code.
 */
export const FORMAT_NAMES = ['murmur', 'harness-ledger', 'lumen', 'agentledger', 'deepstrike', 'claude-code', 'codex', 'gemini-cli', 'qwen-code', 'copilot-cli', 'pi', 'opencode', 'continue', 'otlp', 'generic'] as const;

/** A format name of the public contract. */
export type FormatName = (typeof FORMAT_NAMES)[number];
