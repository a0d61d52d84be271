import { join } from 'node:path';
import { corpusPath, WRITER_CORPUS } from './corpus';

/** The real-writer files the timeline's tests read: a Claude Code session with a subagent, Codex, Gemini, OTLP, two seeds. */
export const TIMELINE_FILES = {
  claude: join(WRITER_CORPUS, 'claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl'),
  codex: join(WRITER_CORPUS, 'codex-0.171.0/shell-ok/sessions/2026/12/01/rollout-2026-12-01T16-25-02-01a2326c-844c-72a2-8812-0ecf1e720fa2.jsonl'),
  gemini: join(WRITER_CORPUS, 'gemini-cli-0.61.0/shell-ok/tmp/project/chats/session-2026-12-01T16-25-ca4599da.jsonl'),
  otlp: join(WRITER_CORPUS, 'otel-js-2.12.1', 'otlp-traces.jsonl'),
  murmur: corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl'),
  lumen: corpusPath('lumen', '.lumen', 'trace', '55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl'),
};
