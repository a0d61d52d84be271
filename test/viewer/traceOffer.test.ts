// The offer of the viewer for a trace opened as text (issue 40): real writers' files copied under other names.
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { opensInViewerByName, traceOfferFor } from '../../src/viewer/traceOffer';
import { tempDir } from '../helpers/tmp';

const CLAUDE = resolve('test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project/fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl');

describe('offering the viewer for a trace opened as text', () => {
  const cases: [string, string, string][] = [
    ['a Claude Code transcript copied elsewhere', CLAUDE, 'claude-code'],
    ['a harness ledger sample', 'samples/harness-ledger/run_1767261600000_31337_0.jsonl', 'harness-ledger'],
    ['Codex exec --json output', 'test/corpus/codex-0.171.0/shell-ok/exec.jsonl', 'codex'],
    ['OTLP JSON Lines', 'test/corpus/otel-js-2.12.1/otlp-traces.jsonl', 'otlp'],
    ['a deepstrike file outside .sessions/', 'samples/deepstrike/.sessions/4b9efe73-6a1e-4496-8068-04a2f64a6e21.jsonl', 'deepstrike'],
  ];
  for (const [what, source, format] of cases) {
    it(`offers it for ${what} (${format})`, async () => {
      const file = join(tempDir(), 'copy.jsonl');
      copyFileSync(resolve(source), file);
      assert.equal(opensInViewerByName(file), false);
      const offer = await traceOfferFor(file);
      assert.equal(offer?.format, format);
      assert.ok(offer.title.length > 0);
    });
  }

  it('never for generic JSON lines, a JSON file that is no trace, another extension, or a file the viewer opens by name', async () => {
    const dir = tempDir();
    const generic = join(dir, 'lines.jsonl');
    copyFileSync(resolve('test/fixtures/viewer/sample.jsonl'), generic);
    assert.equal(await traceOfferFor(generic), null, 'generic JSONL is not a named format');
    const pkg = join(dir, 'settings.json');
    copyFileSync(resolve('package.json'), pkg);
    assert.equal(await traceOfferFor(pkg), null);
    const txt = join(dir, 'copy.txt');
    copyFileSync(CLAUDE, txt);
    assert.equal(await traceOfferFor(txt), null);
    const home = join(dir, '.claude', 'projects', 'p');
    mkdirSync(home, { recursive: true });
    copyFileSync(CLAUDE, join(home, 's.jsonl'));
    assert.equal(opensInViewerByName(join(home, 's.jsonl')), true);
    assert.equal(await traceOfferFor(join(home, 's.jsonl')), null, 'opened as text on purpose: no offer');
    assert.equal(await traceOfferFor(join(dir, 'missing.jsonl')), null, 'an unreadable file is no offer, no crash');
  });
});
