import { strict as assert } from 'node:assert';
import { CORPUS_ROOT, traceFilesUnder, WRITER_CORPUS } from '../../helpers/corpus';
import { loadTrace } from '../../../src/core/loadTrace';
import { KeyIds } from '../../../src/core/diff/signature';
import { comparableLabel } from '../../../src/core/diff/neutralFields';
import { mayBeVolatile, volatileValueClass } from '../../../src/core/diff/volatileFields';

const LABEL_TIMES = /\d+(\.\d+)?\s?(ms|s|µs|us|ns|min|h)\b|\d{4}-\d\d-\d\dT[\d:.]+Z?/g;

/** What comparableLabel means, written the slow way: times out, words split on any whitespace, ids dropped. */
function slowComparableLabel(label: string): string {
  if (!/\d/.test(label)) return label;
  return label.replace(LABEL_TIMES, '').split(/\s+/).filter((w) => volatileValueClass(w) === null).join(' ');
}

describe('diff signatures: interning and comparable labels', () => {
  it('interns digests to ids in order of first sight, as a Map would, through the table growing', () => {
    const ids = new KeyIds();
    const reference = new Map<number, number>();
    // Digests are whole numbers below 2^53; many repeat (the same step in both runs).
    let x = 0x1234567;
    for (let k = 0; k < 200_000; k++) {
      x = (Math.imul(x, 0x41c64e6d) + 12345) >>> 0;
      const key = (x % 50_000) * 0x200000 + (x >>> 11) + (k % 7 === 0 ? 0 : 2 ** 52);
      let want = reference.get(key);
      if (want === undefined) reference.set(key, (want = reference.size));
      assert.equal(ids.of(key), want);
    }
    assert.ok(reference.size > 50_000, `${reference.size} distinct keys`);
    assert.equal(ids.of(0), reference.size);
    assert.equal(ids.of(0), reference.size);
  });

  it('gives every corpus label, and labels with odd spacing, ids and times, the same comparable text as the slow way', async function () {
    this.timeout(60_000);
    const labels = [
      'tool_call bash 12 ms', 'run_created run_ab0d12345678cdef', '  two  spaces 3', 'tab\there 4', 'line\nbreak 5', ' lead 6', 'trail 7 ',
      'no\u00a0break 8', 'at 2026-12-01T16:25:02.123Z done', 'id fd2851d8-4d90-46bd-89d6-038b3d980bdb end', 'sha256:0fd2 x1', '', '9',
      'ls -la src/module_3/ && cat README.md | head -n 20', 'evt_92a59d0a20e6472b', 'x evt_92a59d0a20e6472b',
    ];
    for (const f of [...traceFilesUnder(CORPUS_ROOT), ...traceFilesUnder(WRITER_CORPUS)]) {
      const m = await loadTrace(f);
      for (let i = 0; i < m.events.size; i++) labels.push(m.events.labelOf(i));
    }
    let withDigits = 0;
    for (const l of labels) {
      assert.equal(comparableLabel(l), slowComparableLabel(l), JSON.stringify(l));
      if (/\d/.test(l)) withDigits++;
    }
    assert.ok(withDigits > 300, `${withDigits} labels with digits`);
    // The quick test before a word is classified never passes over a word that has a class, at any offset.
    const words = [...labels.flatMap((l) => l.split(/\s+/)), 'sha256:1', 'SHA1:2', 'blob://3', 'fnv1a64:9', 'Sha256:ab12', 'a'.repeat(39) + '1'];
    let volatile = 0;
    for (const w of words) {
      if (volatileValueClass(w) === null) continue;
      volatile++;
      assert.ok(mayBeVolatile(w, 0, w.length) && mayBeVolatile(`x ${w} y`, 2, 2 + w.length), w);
    }
    assert.ok(volatile > 50, `${volatile} volatile words`);
  });
});
