import { strict as assert } from 'node:assert';
import { LumenDigestWriter } from '../../../../src/core/formats/lumen/lumenDigest';
import { LumenLineScanner } from '../../../../src/core/formats/lumen/lumenScanner';
import { lumenFormat } from '../../../../src/core/formats/lumen/module';
import { planFields } from '../../../../src/core/lineFacts';
import { bytesOf, EDITS, lumenLines, rng } from './lumenEdits';

describe('lumen range digests from line bytes', () => {
  for (const mode of ['verify', 'check'] as const) {
    it(`${mode}: a writer given the bytes digests the same lines into the same rows as one reading the text`, async () => {
      const lines = await lumenLines();
      const r = rng(mode === 'verify' ? 3 : 5);
      const withBytes = new LumenDigestWriter(mode, 16);
      const textOnly = new LumenDigestWriter(mode, 16);
      // As a range worker reads: the scanner first, and the parsed line only where the scanner or its digest refuses.
      const scanned = new LumenDigestWriter(mode, 16);
      const scanner = new LumenLineScanner(planFields(lumenFormat.lineFields!));
      let fromScan = 0;
      let digested = 0;
      let refused = 0;
      let batches = 0;
      const compare = (): void => {
        const expected = textOnly.take().columns;
        assert.deepEqual(withBytes.take().columns, expected);
        assert.deepEqual(scanned.take().columns, expected);
        batches++;
      };
      for (const base of lines) {
        // Mostly lines as written (a chain to follow), some edited.
        const text = r() < 0.3 ? EDITS[Math.floor(r() * EDITS.length)](base, r) : base;
        const bytes = bytesOf(text, r);
        const decoded = bytes.toString('utf8');
        let value: unknown;
        try {
          value = JSON.parse(decoded);
        } catch {
          continue;
        }
        if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
        const row = withBytes.add(decoded, value, bytes);
        assert.equal(row, textOnly.add(decoded, value), decoded);
        let scannedRow = scanner.read(bytes) ? scanned.addScanned(scanner) : -1;
        if (scannedRow >= 0) fromScan++;
        else scannedRow = scanned.add(decoded, value, bytes);
        assert.equal(scannedRow, row, decoded);
        if (row >= 0) digested++;
        else refused++;
        if (r() < 0.01) compare();
      }
      compare();
      assert.ok(digested > 500 && refused > 100 && batches > 5, `${digested} digested, ${refused} refused, ${batches} batches`);
      assert.ok(fromScan > digested * 0.8, `${fromScan} of ${digested} digested from the scanner`);
    });
  }
});
