import * as assert from 'node:assert/strict';
import { compareUtf8 } from '../../../src/core/json/losslessJson';
import { canonicalJson as kernelCanonicalJson } from '../../../src/core/formats/deepstrike/canonical';

/** Strings around the UTF-16 / UTF-8 order boundaries: below the surrogates, above them, astral. */
const SAMPLES = ['', 'a', 'ab', 'Z', 'é', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '😀', '😀a', 'a😀', '\u{10ffff}', '\u{10000}', 'éa', '\uffffa'];

describe('key order of the serde room (compareUtf8)', () => {
  it('is the order of the UTF-8 bytes for every pair of well-formed strings', () => {
    for (const a of SAMPLES) {
      for (const b of SAMPLES) {
        assert.equal(Math.sign(compareUtf8(a, b)), Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
    }
  });

  it('puts a lone surrogate after every BMP character, as the DeepStrike kernel writer always did', () => {
    for (const bmp of ['a', '\ud7ff', '\ue000', '\uffff']) assert.ok(compareUtf8('\ud800', bmp) > 0 && compareUtf8(bmp, '\udfff') < 0, JSON.stringify(bmp));
    assert.ok(compareUtf8('\ud800', '\udbff') < 0);
  });

  it('orders the DeepStrike kernel canonical JSON keys', () => {
    assert.equal(kernelCanonicalJson({ '😀': 1, '\uffff': 2, é: 3, e: [1.5, -0, 2.0], Z: null }), '{"Z":null,"e":[1.5,0,2],"é":3,"\uffff":2,"😀":1}');
  });
});
