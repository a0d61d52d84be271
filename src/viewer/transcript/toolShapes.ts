/**
 * Tool calls read as what they are: an edit as a unified diff (jsdiff, the diff library most of npm uses,
 * kept up and dependency-free), a patch as its text, a shell call as its command, anything else as a form of
 * fields whose code strings keep their newlines and get a highlight.js language. And a shell result's exit
 * code, stdout and stderr, from the shapes Claude Code, Codex and Gemini CLI write. Pure; never executes.
 */
import { createPatch } from 'diff';
import type { ShellOutcome, ToolCallView, ToolField } from '../../protocol';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const SHELL_TOOLS = /^(bash|shell|sh|exec_command|local_shell|run_shell_command|shell_command|run_terminal_cmd|terminal|container\.exec|execute_command)$/i;
const PATCH_TOOLS = /^(apply_patch|patch)$/i;
/** Longest old or new text diffed (larger edits are shown as fields: jsdiff is quadratic in the worst case). */
const MAX_DIFF_CHARS = 200_000;

/** The view of a tool call, from its name and (parsed) arguments. */
export function toolCallView(name: string, args: unknown): ToolCallView {
  const a = isObj(args) ? args : null;
  const patch = patchText(name, args);
  if (patch !== null) return { kind: 'patch', patch };
  const edit = a ? editPatch(a) : null;
  if (edit) return edit;
  if (a && (SHELL_TOOLS.test(name) || (name === '' && 'command' in a))) {
    const command = commandText(a.command ?? a.cmd ?? a.commandLine ?? a.script);
    if (command !== null) return { kind: 'shell', command, cwd: str(a.workdir) ?? str(a.cwd) ?? str(a.dir_path) ?? str(a.directory) };
  }
  return { kind: 'form', fields: formFields(args) };
}

function patchText(name: string, args: unknown): string | null {
  const text = typeof args === 'string' ? args : isObj(args) ? str(args.input) ?? str(args.patch) ?? commandText(args.command) : null;
  if (text === null) return null;
  return PATCH_TOOLS.test(name) || text.includes('*** Begin Patch') ? text : null;
}

/** Claude `Edit`/`MultiEdit`/`Write`, `str_replace`, `edit_file`: old and new text of one file as a diff. */
function editPatch(a: Obj): ToolCallView | null {
  const file = str(a.file_path) ?? str(a.path) ?? str(a.target_file) ?? str(a.filename) ?? 'file';
  const pairs: [string, string][] = [];
  if (Array.isArray(a.edits)) {
    for (const e of a.edits) if (isObj(e)) pairs.push([str(e.old_string) ?? str(e.old_str) ?? str(e.oldText) ?? '', str(e.new_string) ?? str(e.new_str) ?? str(e.newText) ?? '']);
  } else {
    const before = str(a.old_string) ?? str(a.old_str) ?? str(a.oldText) ?? str(a.old_text);
    const after = str(a.new_string) ?? str(a.new_str) ?? str(a.newText) ?? str(a.new_text);
    if (before !== null && after !== null) pairs.push([before, after]);
  }
  if (pairs.length === 0 || pairs.some(([o, n]) => o.length + n.length > MAX_DIFF_CHARS)) return null;
  // createPatch starts with an `Index:` line and a rule of `=` that say nothing the ---/+++ lines do not.
  const patch = pairs.map(([o, n]) => createPatch(file, withNewline(o), withNewline(n), '', '', { context: 3 }).replace(/^Index: .*\n=+\n/, '').trimEnd()).join('\n');
  return { kind: 'edit', file, patch };
}

function withNewline(s: string): string {
  return s.length === 0 || s.endsWith('\n') ? s : `${s}\n`;
}

function commandText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  // Codex and others pass argv: `["bash", "-lc", "npm test"]` reads best as its script.
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
    const argv = v as string[];
    return argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]) && /^-l?c$/.test(argv[1]) ? argv[2] : argv.join(' ');
  }
  return null;
}

/** The arguments as fields; a string with newlines (or under a code-like key) gets a language. */
export function formFields(args: unknown): ToolField[] {
  if (!isObj(args)) return [{ name: 'arguments', ...fieldValue(args), language: typeof args === 'string' && args.includes('\n') ? 'plaintext' : null }];
  const hint = languageHint(args);
  return Object.entries(args).map(([name, v]) => {
    const code = typeof v === 'string' && (v.includes('\n') || /^(code|content|source|script|query|sql)$/i.test(name));
    return { name, ...fieldValue(v), language: code ? hint ?? (/sql|query/i.test(name) ? 'sql' : 'plaintext') : null };
  });
}

function fieldValue(v: unknown): { text: string | null; value?: unknown } {
  return typeof v === 'string' ? { text: v } : { text: null, value: v ?? null };
}

const EXTENSIONS: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', rs: 'rust', go: 'go', java: 'java', kt: 'kotlin', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', cs: 'csharp', rb: 'ruby',
  php: 'php', sh: 'bash', bash: 'bash', zsh: 'bash', json: 'json', jsonl: 'json', yaml: 'yaml', yml: 'yaml', toml: 'ini', ini: 'ini', md: 'markdown',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml', css: 'css', scss: 'scss', sql: 'sql', swift: 'swift', diff: 'diff', patch: 'diff',
};

/** A highlight.js language for a file path (by its extension), or null. */
export function languageOfPath(path: string): string | null {
  const m = /\.([A-Za-z0-9]+)$/.exec(path);
  return m ? EXTENSIONS[m[1].toLowerCase()] ?? null : null;
}

/**
 * The highlight.js language of a tool's output: the file it read (the call's path argument, or Claude Code's
 * `toolUseResult.file.filePath` beside a Read result), else JSON when the text parses as an object or array, a
 * unified diff when it is one, else null (shown preformatted, not highlighted).
 */
export function outputLanguage(text: string, args?: unknown, sidecar?: unknown): string | null {
  const file = isObj(sidecar) && isObj(sidecar.file) ? str(sidecar.file.filePath) : null;
  const fromPath = file !== null ? languageOfPath(file) : isObj(args) ? languageHint(args) : null;
  if (fromPath) return fromPath;
  const t = text.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      JSON.parse(t);
      return 'json';
    } catch {
      // not JSON: fall through
    }
  }
  return /^(diff --git |--- )/m.test(t) && /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m.test(t) ? 'diff' : null;
}

function languageHint(a: Obj): string | null {
  const lang = str(a.language) ?? str(a.lang);
  if (lang && /^[a-z0-9+#-]{1,20}$/i.test(lang)) return EXTENSIONS[lang.toLowerCase()] ?? lang.toLowerCase();
  const path = str(a.file_path) ?? str(a.path) ?? str(a.filename) ?? str(a.target_file);
  return path ? languageOfPath(path) : null;
}

/**
 * A shell result's outcome. Codex: `Process exited with code N … Output:\n…` (or JSON with `metadata.exit_code`);
 * Claude Code: `Error: Exit code N\n<stderr>` on failure, with `toolUseResult.stdout/stderr` beside it;
 * Gemini CLI: `Exit Code: N`, `Stdout:`/`Stderr:`/`Output:` sections. Null when the text is none of these.
 */
export function shellOutcome(text: string | null, value: unknown, isError: boolean, sidecar?: unknown): ShellOutcome | null {
  if (isObj(sidecar) && (typeof sidecar.stdout === 'string' || typeof sidecar.stderr === 'string')) {
    return { exitCode: num(sidecar.exitCode ?? sidecar.exit_code) ?? (isError ? null : 0), stdout: str(sidecar.stdout) ?? '', stderr: str(sidecar.stderr) ?? '' };
  }
  const body = text ?? (isObj(value) ? JSON.stringify(value) : null);
  if (body === null) return null;
  const json = parseObj(body);
  if (json && (typeof json.output === 'string' || typeof json.stdout === 'string')) {
    const meta = isObj(json.metadata) ? json.metadata : json;
    return { exitCode: num(meta.exit_code ?? meta.exitCode), stdout: str(json.stdout) ?? str(json.output) ?? '', stderr: str(json.stderr) ?? '' };
  }
  const codex = /(?:Process exited with code|Exit code:?)\s*(-?\d+)/i.exec(body);
  const claude = /^(?:Error: )?Exit code (-?\d+)\n?/.exec(body);
  if (claude) return { exitCode: Number(claude[1]), stdout: '', stderr: body.slice(claude[0].length), combined: true };
  if (!codex) return null;
  const section = (name: string) => new RegExp(`^${name}:[ \\t]*\\n?([\\s\\S]*?)(?=${HEADERS.source}|$(?![\\s\\S]))`, 'mi').exec(body)?.[1] ?? null;
  const stdout = section('Stdout') ?? section('Output') ?? '';
  const stderr = section('Stderr') ?? '';
  return { exitCode: Number(codex[1]), stdout: stdout === '(empty)' ? '' : stdout, stderr: stderr === '(empty)' ? '' : stderr };
}

/** Section headers of the shell results above (only these end a section: output may hold any `word:`). */
const HEADERS = /^(?:Stdout|Stderr|Output|Error|Exit Code|Signal|Background PIDs|Process Group PGID|Command|Directory|Chunk ID|Wall time|Original token count|Process exited with code)\b/;

function parseObj(text: string): Obj | null {
  const t = text.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(t);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
