import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expandTraceFiles } from '../../../../src/core/traceFiles';
import { shownPath } from '../../../../src/core/tracePath';
import { isLumenKind, LumenKind } from '../../../../src/core/formats/lumen/lumenFields';
import { KIND_SCHEMAS, kindFieldProblem, zodFieldProblem } from '../../../../src/core/formats/lumen/lumenKindSchemas';
import { corpusPath } from '../../../helpers/corpus';

/** Replacements tried for every field (and every `details` field) of a line. */
const ODD: unknown[] = [undefined, null, '', 'x', -1, 1.5, 0, 7, true, false, [], {}, { a: 1 }, [1]];

function variants(line: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [line];
  for (const key of Object.keys(line)) {
    for (const odd of ODD) out.push({ ...line, [key]: odd });
    const d = line.details;
    if (key === 'details' && d && typeof d === 'object' && !Array.isArray(d)) {
      for (const dk of Object.keys(d)) for (const odd of ODD) out.push({ ...line, details: { ...d, [dk]: odd } });
    }
  }
  return out;
}

describe('lumen kind fields', () => {
  it('the fast path says what zod says for every corpus line and for each of its fields made odd', async () => {
    const { files } = await expandTraceFiles([corpusPath('lumen'), resolve(__dirname, '..', '..', '..', '..', 'samples', 'lumen'), resolve(__dirname, '..', '..', '..', 'fixtures', 'lumen')]);
    assert.ok(files.length >= 6, `${files.length} files`);
    let ok = 0;
    let problems = 0;
    for (const file of files.map(shownPath)) {
      for (const text of readFileSync(file, 'utf8').split('\n')) {
        let line: unknown;
        try {
          line = JSON.parse(text);
        } catch {
          continue;
        }
        if (!line || typeof line !== 'object' || Array.isArray(line)) continue;
        const kind = (line as { kind?: unknown }).kind;
        if (typeof kind !== 'string' || !isLumenKind(kind)) continue;
        for (const v of [...variants(line as Record<string, unknown>), [line], 'text', null]) {
          const expected = zodFieldProblem(kind as LumenKind, KIND_SCHEMAS[kind as LumenKind], v);
          assert.equal(kindFieldProblem(kind as LumenKind, v), expected, `${kind}: ${JSON.stringify(v)}`);
          if (expected === null) ok++;
          else problems++;
        }
      }
    }
    // Both verdicts were compared, many times each.
    assert.ok(ok > 1000 && problems > 1000, `${ok} accepted, ${problems} rejected`);
  });
});
