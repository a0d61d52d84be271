/**
 * How the transcript shows tool calls and shell results (issue 15 item 2): computed on the host, drawn by the
 * webview. Plain JSON; its own file so types.ts (ChatPart) and transcript.ts share it without
 * importing each other.
 */
/** How a tool call reads as what it is (computed on the host from the tool's name and arguments). */
export type ToolCallView =
  /** An edit tool: the file and a unified diff of old → new (jsdiff's `createPatch`). */
  | { kind: 'edit'; file: string; patch: string }
  /** A patch tool (`apply_patch`): the patch text as written. */
  | { kind: 'patch'; patch: string }
  /** A shell call: the command line, and the working directory when given. */
  | { kind: 'shell'; command: string; cwd: string | null }
  /** Any other tool: its arguments as fields; code strings keep their newlines and get a language. */
  | { kind: 'form'; fields: ToolField[] };

/** One argument of a tool call shown as a form row. */
export interface ToolField {
  name: string;
  /** A string argument (with real newlines); null when `value` holds a non-string value. */
  text: string | null;
  value?: unknown;
  /** highlight.js language name for a code string (from a file extension or a language field), else null. */
  language: string | null;
}

/** A shell call's outcome read from its tool result. */
export interface ShellOutcome {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The writer logged stdout and stderr as one text (Claude Code on failure): it is in `stderr`. */
  combined?: boolean;
}
