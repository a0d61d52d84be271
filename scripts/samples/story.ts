// The one agent story every sample tells, in each runtime's own words: a coding agent is asked to fix a
// failing test in a small Node project. It reads the test, tries a file that does not exist (a failing tool
// call), reads the real source, runs the tests (red), edits the source after an approval, runs the tests again
// (green), is refused a `git push`, and answers. The user's prompt quotes harmless HTML so that a viewer's
// escaping is visible: it must show `<b>bold</b> <script>alert(1)</script>` as text.

/** The project the agent works in (a relative, made-up workspace). */
export const REPO = 'welcome-page';
/** A fictional absolute working directory, for formats that record one. */
export const CWD = '/workspace/welcome-page';

/** The name that broke the welcome page; shown as text, never as markup. */
export const HOSTILE_NAME = '<b>bold</b> <script>alert(1)</script>';

/** The user's request. */
export const PROMPT =
  'CI is red: `npm test` fails in test/greeting.test.js. A user signed up with the name ' +
  `\`${HOSTILE_NAME}\` and the welcome page rendered it as markup. ` +
  'Make formatGreeting escape HTML so the name shows as plain text, and keep the other tests green.';

/** The follow-up request of the second task (murmur has two tasks in one session). */
export const FOLLOW_UP = 'Thanks. Write a one-line CHANGELOG entry for this fix.';
export const CHANGELOG_LINE = '- Escape HTML in `formatGreeting` so user names render as text, not markup (#214).';

export const SYSTEM_PROMPT =
  'You are test-fixer, a careful coding agent. Read the failing test before changing code. ' +
  'Make the smallest change that makes the tests pass. Never push to a remote.';

export const TEST_PATH = 'test/greeting.test.js';
export const TEST_SOURCE = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGreeting } from '../src/greeting.js';

test('greets by name', () => {
  assert.equal(formatGreeting('Ada'), '<p>Hello, Ada!</p>');
});

test('escapes HTML in names', () => {
  const name = '${HOSTILE_NAME}';
  assert.equal(
    formatGreeting(name),
    '<p>Hello, &lt;b&gt;bold&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;!</p>',
  );
});
`;

/** The path the agent guesses first; it does not exist. */
export const MISSING_PATH = 'src/greeting.ts';
export const SRC_PATH = 'src/greeting.js';
export const SRC_BEFORE = 'export function formatGreeting(name) {\n  return `<p>Hello, ${name}!</p>`;\n}\n';
export const SRC_AFTER = `const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export function formatGreeting(name) {
  return \`<p>Hello, \${escapeHtml(name)}!</p>\`;
}
`;

export const TEST_COMMAND = 'npm test';
export const TEST_OUTPUT_FAIL = `
> welcome-page@1.4.0 test
> node --test

✔ greets by name (0.612ms)
✖ escapes HTML in names (1.047ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  '<p>Hello, ${HOSTILE_NAME}!</p>' !== '<p>Hello, &lt;b&gt;bold&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;!</p>'

      at TestContext.<anonymous> (test/greeting.test.js:11:10)

ℹ tests 2
ℹ pass 1
ℹ fail 1
ℹ duration_ms 61.2
`;
export const TEST_OUTPUT_PASS = `
> welcome-page@1.4.0 test
> node --test

✔ greets by name (0.598ms)
✔ escapes HTML in names (0.377ms)
ℹ tests 2
ℹ pass 2
ℹ fail 0
ℹ duration_ms 58.9
`;

export const PUSH_COMMAND = 'git push origin fix/escape-greeting';
export const PUSH_DENIAL = 'pushing is not allowed for this agent; the maintainer pushes after review';

/** What the agent says before each step, in order (shared so every format reads the same). */
export const THOUGHTS = {
  readTest: 'Let me read the failing test first.',
  readMissing: 'The test imports formatGreeting. Let me open the source.',
  readSource: 'There is no TypeScript source; the module is plain JavaScript.',
  runTests: 'formatGreeting interpolates the name unescaped. Let me confirm the failure.',
  edit: 'Confirmed: the name is inserted as raw HTML. I will escape it before interpolating.',
  rerun: 'Now the tests again.',
  push: 'Both tests pass. I will push the branch so CI can run.',
} as const;

export const FINAL_ANSWER =
  `Fixed. \`formatGreeting\` inserted the name straight into the HTML, so \`${HOSTILE_NAME}\` became markup. ` +
  'src/greeting.js now escapes `& < > " \'` before interpolating, and `npm test` passes (2/2). ' +
  'I did not push: the push was refused, so the branch fix/escape-greeting is ready for you to push.';

/** The file edit as an old/new replacement, for tools that take one. */
export const EDIT_INPUT = { path: SRC_PATH, old_text: SRC_BEFORE, new_text: SRC_AFTER };

/** UTF-8 byte length of a string. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
