import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandTraceFiles } from '../../../../src/core/traceFiles';
import { shownPath } from '../../../../src/core/tracePath';
import { LumenFastLine, Tok } from '../../../../src/core/formats/lumen/lumenFastLine';
import { fastFieldsClean, fastHashMatches, FastTimestamps } from '../../../../src/core/formats/lumen/lumenFastChecks';
import { LumenLineReader, sha256Hex } from '../../../../src/core/formats/lumen/lumenLine';
import { LUMEN_KEYS, SLOT } from '../../../../src/core/formats/lumen/lumenFields';
import { LumenChainVerifier } from '../../../../src/core/formats/lumen/lumenChainVerifier';
import { LumenRunChecker } from '../../../../src/core/formats/lumen/lumenRunChecker';
import { loadTrace } from '../../../../src/core/loadTrace';
import type { LineInput } from '../../../../src/core/rules/types';
import { corpusPath } from '../../../helpers/corpus';
import { writeTrace } from './lumenHelpers';
import { bytesOf, EDITS, lumenLines, rng, ROOT } from './lumenEdits';
import { DEFAULT_BLOB_LAYOUT } from '../../../../src/core/blobs/defaultBlobLayout';

const TOK_KIND: Record<number, string> = { [Tok.Str]: 'string', [Tok.Int]: 'integer', [Tok.Bool]: 'boolean', [Tok.Null]: 'null', [Tok.Obj]: 'object', [Tok.Arr]: 'array' };

describe('lumen fast line reader', () => {
  it('reads what the lossless reader reads, hashes the same pre-image and finds the same lines clean', async () => {
    const lines = await lumenLines();
    assert.ok(lines.length > 1000, `${lines.length} lines`);
    const r = rng(14);
    const fast = new LumenFastLine();
    const slow = new LumenLineReader();
    const times = new FastTimestamps();
    const tally = { accepted: 0, refused: 0, clean: 0, unclean: 0, mismatched: 0 };
    for (const base of lines) {
      const variants = [base, ...EDITS.map((e) => e(base, r)), EDITS[Math.floor(r() * EDITS.length)](EDITS[Math.floor(r() * EDITS.length)](base, r), r)];
      for (const text of variants) {
        const bytes = bytesOf(text, r);
        const decoded = bytes.toString('utf8');
        try {
          JSON.parse(decoded);
        } catch {
          continue; // the fast path is only asked about lines JSON.parse accepted
        }
        if (!fast.read(bytes)) {
          tally.refused++;
          continue;
        }
        tally.accepted++;
        assert.ok(slow.read(decoded, true), decoded);
        assert.deepEqual([slow.unknownKeys, slow.duplicateKey, slow.floatInDetails], [[], null, false], decoded);
        for (let slot = 0; slot < LUMEN_KEYS.length; slot++) {
          const here = fast.present(slot) ? bytes.toString('utf8', fast.start[slot], fast.end[slot]) : undefined;
          assert.equal(here, slow.canon[slot], `${LUMEN_KEYS[slot]} of ${decoded}`);
          assert.equal(fast.present(slot) ? TOK_KIND[fast.tok[slot]] : undefined, slow.kinds[slot], `${LUMEN_KEYS[slot]} of ${decoded}`);
        }
        assert.equal(fast.preimageHex(), sha256Hex(slow.preimage()), decoded);
        const clean = fastFieldsClean(fast, times);
        assert.equal(clean, slow.loadFindings(1).length === 0, decoded);
        tally[clean ? 'clean' : 'unclean']++;
        const matches = fastHashMatches(fast) !== null;
        assert.equal(matches, slow.string(SLOT.hash) === slow.computeHash(), decoded);
        if (!matches) tally.mismatched++;
      }
    }
    // Every verdict was reached many times.
    for (const [k, n] of Object.entries(tally)) assert.ok(n > 300, `${k}: ${n} (${JSON.stringify(tally)})`);
  });

  it('verify and check with the fast path report exactly what the slow path reports, on corpus files and edited copies', async () => {
    const { files } = await expandTraceFiles([corpusPath('lumen'), join(ROOT, 'samples', 'lumen'), join(ROOT, 'test', 'fixtures', 'lumen')]);
    const r = rng(7);
    const traces = files.map(shownPath).filter((f) => f.endsWith('.jsonl'));
    for (const file of [...traces]) {
      const lines = readFileSync(file, 'utf8').split('\n');
      // An edited copy: a few lines edited (some of them hashed again, as a forger would), one dropped, one repeated.
      const edited = lines.map((l, i) => (l && i > 0 && r() < 0.2 ? EDITS[Math.floor(r() * EDITS.length)](l, r) : l)).map((l) => (r() < 0.1 ? rehashed(l) : l));
      if (edited.length > 4) {
        edited.splice(2, 1);
        edited.splice(4, 0, edited[3]);
      }
      traces.push(writeTrace(edited, { trailingNewline: false }));
    }
    let compared = 0;
    let findings = 0;
    let prevHashFindings = 0;
    let checkFindings = 0;
    for (const file of traces) {
      const [withBytes, withoutBytes] = await Promise.all([verifyLines(file, true), verifyLines(file, false)]);
      assert.deepEqual(withBytes, withoutBytes, file);
      const [checkedWithBytes, checkedWithout] = await Promise.all([verifyLines(file, true, 'check'), verifyLines(file, false, 'check')]);
      assert.deepEqual(checkedWithBytes, checkedWithout, file);
      checkFindings += checkedWithBytes.length;
      compared++;
      findings += withBytes.length;
      prevHashFindings += withBytes.filter((f) => f.rule === 'lumen/chain-prev-hash').length;
    }
    assert.ok(compared >= 14 && findings > 50, `${compared} files, ${findings} findings`);
    // The forged lines are intact themselves: only the link from the line after them shows the edit.
    assert.ok(prevHashFindings > 5, `${prevHashFindings} chain-prev-hash findings`);
    assert.ok(checkFindings > 20, `${checkFindings} check findings`);
  });
});

/** The line with its stored hash replaced by the one its fields hash to (unchanged when it cannot be read). */
function rehashed(line: string): string {
  const reader = new LumenLineReader();
  if (!reader.read(line) || reader.string(SLOT.hash) === null) return line;
  return line.replace(/"hash":"[^"]*"/, `"hash":"${reader.computeHash()}"`);
}

/** The chain verifier's (or run checker's) findings over a file's lines, handed with their bytes (fast path) or only their text. */
async function verifyLines(file: string, bytes: boolean, mode: 'verify' | 'check' = 'verify') {
  const model = await loadTrace(file);
  const ctx = { path: file, model, traceModel: model, blobLayout: DEFAULT_BLOB_LAYOUT };
  const verifier = mode === 'verify' ? new LumenChainVerifier(ctx) : new LumenRunChecker(ctx);
  const raw = readFileSync(file);
  const start = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? 3 : 0;
  let line = 0;
  for (let p = start; p < raw.length; ) {
    const nl = raw.indexOf(10, p);
    const end = nl < 0 ? raw.length : nl;
    const b = raw.subarray(p, end);
    const text = b.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const input: LineInput = { line: ++line, text, value, blank: text.trim() === '', validJson: value !== undefined, ...(bytes ? { bytes: b } : {}) };
    verifier.add(input);
    p = end + 1;
  }
  return verifier.finish();
}
