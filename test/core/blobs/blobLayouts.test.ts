import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { blobLayoutOf, DEFAULT_BLOB_LAYOUT } from '../../../src/core/blobStore';
import { detectFormat } from '../../../src/core/detect';
import { FORMAT_LIST } from '../../../src/core/formats';
import { agentledgerBlobLayout } from '../../../src/core/formats/agentledger/blobLayout';
import { murmurBlobLayout } from '../../../src/core/formats/murmur/blobLayout';

const CORPUS = join(__dirname, '..', '..', 'seed-corpus');

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'blobs' && name !== 'sha256') out.push(...jsonlFiles(p));
    } else if (name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

describe('blob layouts', () => {
  it('are declared by murmur and agentledger; every other format gets the default', () => {
    for (const m of FORMAT_LIST) {
      const want = m.name === 'murmur' ? murmurBlobLayout : m.name === 'agentledger' ? agentledgerBlobLayout : DEFAULT_BLOB_LAYOUT;
      assert.equal(blobLayoutOf(m.name), want, m.name);
    }
  });

  it("never rule out a line that holds a reference (lineMayHoldRef is a safe pre-filter), on every corpus JSONL", () => {
    let withRefs = 0;
    for (const file of jsonlFiles(CORPUS)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      const values = lines.slice(0, 20).flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } });
      const layout = blobLayoutOf(detectFormat({ values, fileName: file.split('/').pop()!, path: file, document: false }).format);
      lines.forEach((text, i) => {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return;
        }
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
        const refs = layout.scanLine(i + 1, value as Record<string, unknown>, text);
        if (refs.length === 0) return;
        withRefs++;
        assert.ok(layout.lineMayHoldRef(text), `${file}:${i + 1} holds ${refs[0].field} but the pre-filter says no`);
      });
    }
    assert.ok(withRefs > 20, `only ${withRefs} lines with references in the corpus`);
  });

  it('builds synthetic references each layout resolves as a blob of its own', () => {
    const d = 'a'.repeat(64);
    assert.equal(murmurBlobLayout.refRole(murmurBlobLayout.syntheticRef(d, 'sha256')), 'blob');
    assert.equal(agentledgerBlobLayout.refRole(agentledgerBlobLayout.syntheticRef(d, 'sha256')), 'blob');
    assert.equal(agentledgerBlobLayout.hashMethod(agentledgerBlobLayout.syntheticRef(d, 'sha256')), 'sha256-canonical-json');
    assert.equal(DEFAULT_BLOB_LAYOUT.refRole(DEFAULT_BLOB_LAYOUT.syntheticRef(d, 'sha256')), 'opportunistic');
    assert.deepEqual(murmurBlobLayout.digestOfStoredName(`${d}.tmp`), null);
    assert.deepEqual(DEFAULT_BLOB_LAYOUT.digestOfStoredName(`${d}.json`), { digest: d, algorithm: 'sha256' });
  });
});
