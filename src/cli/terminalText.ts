/**
 * Characters that act on a terminal or reorder text instead of showing: C0 controls (ANSI escapes start with ESC),
 * DEL, C1 controls (U+0080–U+009F, where CSI is a single character) and the bidi controls that make
 * `invoice_fdp.exe` read as `invoice_exe.pdf`. Tab and newline stay: they are the output's own layout.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes trace text safe to print to a terminal: every control character becomes a visible escape (`\x1b`,
 * `\u202e`), so a crafted id can neither set the window title, clear the screen or recolour the output, nor
 * reverse what is shown.
 */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
