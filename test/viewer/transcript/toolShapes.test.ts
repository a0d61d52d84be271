import { strict as assert } from 'node:assert';
import { languageOfPath, shellOutcome, toolCallView } from '../../../src/viewer/transcript/toolShapes';

describe('tool calls read as what they are (issue 15 item 2)', () => {
  it('Claude Edit and MultiEdit, str_replace: a unified diff of the file', () => {
    const v = toolCallView('Edit', { file_path: 'src/a.ts', old_string: 'x = 1\ny = 2', new_string: 'x = 1\ny = 3' });
    assert.equal(v.kind, 'edit');
    if (v.kind !== 'edit') return;
    assert.equal(v.file, 'src/a.ts');
    assert.equal(v.patch, '--- src/a.ts\n+++ src/a.ts\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3');
    const multi = toolCallView('MultiEdit', { file_path: 'b.py', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }] });
    assert.equal(multi.kind === 'edit' && (multi.patch.match(/^@@/gm) ?? []).length, 2);
    assert.equal(toolCallView('str_replace_based_edit_tool', { command: 'str_replace', path: 'c.go', old_str: 'p', new_str: 'q' }).kind, 'edit');
  });

  it('apply_patch keeps its patch; a shell call its command (argv `bash -lc` reads as the script)', () => {
    const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch';
    assert.deepEqual(toolCallView('apply_patch', { input: patch }), { kind: 'patch', patch });
    assert.deepEqual(toolCallView('shell', { command: ['bash', '-lc', 'npm test'], workdir: '/w' }), { kind: 'shell', command: 'npm test', cwd: '/w' });
    assert.deepEqual(toolCallView('run_shell_command', { command: 'ls', dir_path: 'src' }), { kind: 'shell', command: 'ls', cwd: 'src' });
  });

  it('any other tool: a form; code strings get a language from the file extension', () => {
    const v = toolCallView('Write', { file_path: 'x.rs', content: 'fn main() {}\n' });
    assert.deepEqual(v, { kind: 'form', fields: [{ name: 'file_path', text: 'x.rs', language: null }, { name: 'content', text: 'fn main() {}\n', language: 'rust' }] });
    assert.equal(languageOfPath('a/b.TSX'), 'typescript');
    assert.equal(languageOfPath('Makefile'), null);
  });

  it('shell outcomes: Codex, Claude Code, Gemini CLI shapes, and text that is none of them', () => {
    assert.deepEqual(shellOutcome('Exit code 1\nboom', undefined, true), { exitCode: 1, stdout: '', stderr: 'boom', combined: true });
    assert.deepEqual(shellOutcome('{"output":"hi\\n","metadata":{"exit_code":0}}', undefined, false), { exitCode: 0, stdout: 'hi\n', stderr: '' });
    assert.deepEqual(shellOutcome('Command: npm test\nDirectory: (root)\nStdout: ok\nStderr: Error: failed\nnpm ERR! x\nError: (none)\nExit Code: 1\nSignal: (none)', undefined, true), { exitCode: 1, stdout: 'ok\n', stderr: 'Error: failed\nnpm ERR! x\n' });
    assert.equal(shellOutcome('just some text', undefined, false), null);
  });
});
