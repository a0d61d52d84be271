// Where a run worked (issue 39): each format that records its folder answers through FormatModule.workingFolder, over
// the first records of a JSONL file or a document's record, and the loader hands it on as TraceModel.workingFolder;
// the session catalog's `project` is that answer (one path), so Continue's and opencode's sessions are placed too.
import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { listSessions } from '../../../src/core/sessions/sessionCatalog';
import { WRITER_CORPUS } from '../../helpers/corpus';

const PROJECT = '/home/user/project';
const c = (...p: string[]) => join(WRITER_CORPUS, ...p);
const only = (dir: string) => join(dir, readdirSync(dir).find((n) => n.endsWith('.jsonl') || n.endsWith('.json'))!);

/** One session file of each tool (text scenario), with the format it reads as. */
const FILES: [string, string][] = [
  ['claude-code', c('claude-code-2.1.332', 'text', 'projects', '-home-user-project', 'd7d94e1c-8f45-41b2-8a1f-5bdbdbef48d1.jsonl')],
  ['codex', only(c('codex-0.171.0', 'text', 'sessions', '2026', '12', '01'))],
  ['qwen-code', only(c('qwen-code-0.24.4', 'text', '.qwen', 'projects', '-home-user-project', 'chats'))],
  ['copilot-cli', c('copilot-cli-1.0.102', 'text', '.copilot', 'session-state', '3d2a3d3d-fe04-402a-a821-5b3a653492bb', 'events.jsonl')],
  ['pi', only(c('pi-0.73.1', 'text', '.pi', 'agent', 'sessions', '--home-user-project--'))],
  ['continue', c('continue-1.5.47', 'text', '.continue', 'sessions', '12a65a06-94d3-473b-b0c8-f3a5305d14a7.json')],
  ['opencode', c('opencode-1.18.33', 'shell-ok', 'export.json')],
];

describe('the folder a run worked in (FormatModule.workingFolder)', function () {
  this.timeout(60_000);

  for (const [format, file] of FILES) {
    it(`${format}: read from its records into TraceModel.workingFolder`, async () => {
      const model = await loadTrace(file);
      assert.equal(model.format, format);
      assert.equal(model.workingFolder, PROJECT);
    });
  }

  it('is absent where the writer records none (Gemini CLI keeps a hash of the folder, and the folder is the tmp folder’s name)', async () => {
    const model = await loadTrace(only(c('gemini-cli-0.61.0', 'text', 'tmp', 'project', 'chats')));
    assert.equal(model.format, 'gemini-cli');
    assert.equal(model.workingFolder, undefined);
  });

  it("is the catalog's project: an opencode export and a Continue session outside any root are placed in their folder", async () => {
    const files = [c('opencode-1.18.33', 'shell-ok', 'export.json'), c('continue-1.5.47', 'text', '.continue', 'sessions', '12a65a06-94d3-473b-b0c8-f3a5305d14a7.json')];
    const listing = await listSessions({ roots: [], files });
    assert.deepEqual(listing.records.map((r) => [r.entry.agent, r.entry.project]).sort(), [['continue', PROJECT], ['opencode', PROJECT]]);
    assert.deepEqual([...listing.outsideRoots].sort(), [...files].sort());
    // Both verified and checked on the same read.
    assert.deepEqual(listing.records.map((r) => r.verdict?.state), ['pass', 'pass']);
  });
});
