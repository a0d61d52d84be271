import { strict as assert } from 'node:assert';
import { FactReader, FactWriter, planFields } from '../../../../src/core/lineFacts';
import { lumenFormat } from '../../../../src/core/formats/lumen/module';
import { LumenLineScanner } from '../../../../src/core/formats/lumen/lumenScanner';
import { fastKindFieldsOk } from '../../../../src/core/formats/lumen/lumenFastChecks';
import { kindFieldProblem } from '../../../../src/core/formats/lumen/lumenKindSchemas';
import { LUMEN_KINDS, SLOT } from '../../../../src/core/formats/lumen/lumenFields';
import { bytesOf, EDITS, lumenLines, rng } from './lumenEdits';

/** Edits that JSON.parse refuses but a reader that only looks for quotes would take. */
const CONTROL_EDITS: ((line: string, r: () => number) => string)[] = [
  (l) => l.replace(/"cell":"/, '"cell":"\t'),
  (l) => l.replace(/"hash":"sha256:/, '"hash":"sha256:\u0001'),
  (l) => l.replace(/"timestamp":"/, '"timestamp":"\u001f'),
  (l) => l.replace(/"details":\{"/, '"details":{"\n'),
  (l) => l.replace(/}$/, ',"message":"a\u0000b"}'),
  (l) => l.replace(/}$/, ',"details":{"ip":3,"opcode":"x\ty"}}'),
];

/** Edits that stay in the subset: nested values of every kind where the builder reads them. */
const NESTED_EDITS: ((line: string) => string)[] = [
  (l) => l.replace(/"details":\{[^}]*\}/, '"details":{"ip":-12,"opcode":{"a":[1,"}"]},"result_type":null,"success":false,"valid":true}'),
  (l) => l.replace(/"details":\{[^}]*\}/, '"details":{"ip":[],"schema":"é\\u0000"}'),
  (l) => l.replace(/"details":\{[^}]*\}/, '"details":{"a":{"ip":1},"ip":"deep only above"}'),
  (l) => l.replace(/"details":\{[^}]*\}/, '"details":[1,2]'),
  (l) => l.replace(/"details":\{[^}]*\}/, '"details":"text"'),
  (l) => l.replace(/"details":\{[^}]*\}/, '"details":{}'),
  (l) => l.replace(/"cell":"[^"]*"/, '"cell":{"b":[true,null],"c":"x"}'),
  (l) => l.replace(/}$/, ',"tool_id":"t","latency_ms":0,"cached":false,"message":null}'),
];

describe('lumen line scanner: facts from bytes, as JSON.parse gives them', () => {
  const plan = planFields(lumenFormat.lineFields!);

  it('takes only lines JSON.parse reads as objects, and writes the facts FactWriter writes of the parsed line', async () => {
    const lines = await lumenLines();
    const r = rng(41);
    const scanner = new LumenLineScanner(plan);
    const mine = new FactWriter(plan, 4);
    const theirs = new FactWriter(plan, 4);
    const tally = { taken: 0, refused: 0, refusedValid: 0 };
    const compare = (text: string, bytes: Buffer): void => {
      let value: unknown;
      try {
        value = JSON.parse(bytes.toString('utf8'));
      } catch {
        value = undefined;
      }
      if (!scanner.read(bytes)) {
        tally.refused++;
        if (value !== undefined) tally.refusedValid++;
        return;
      }
      tally.taken++;
      assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `taken but JSON.parse refuses it or it is no object: ${JSON.stringify(text)}`);
      assert.ok(bytes.equals(Buffer.from(bytes.toString('utf8'), 'utf8')), `taken but not valid UTF-8: ${JSON.stringify(text)}`);
      scanner.writeFacts(mine);
      theirs.add(value);
      const a = new FactReader(plan, mine.take()).read(0);
      const b = new FactReader(plan, theirs.take()).read(0);
      assert.deepStrictEqual(a, b, text);
      assert.deepStrictEqual(Object.keys(a), Object.keys(b), text);
    };
    for (const base of lines) {
      const variants = [base, ...EDITS.map((e) => e(base, r)), ...CONTROL_EDITS.map((e) => e(base, r)), ...NESTED_EDITS.map((e) => e(base))];
      for (const text of variants) compare(text, bytesOf(text, r));
    }
    // The writer's own lines are taken (every corpus line is canonical), edits both ways.
    assert.ok(tally.taken > lines.length, JSON.stringify(tally));
    assert.ok(tally.refused > 1000 && tally.refusedValid > 500, JSON.stringify(tally));
  });

  it('refuses a string with a control character, which JSON.parse refuses', () => {
    const scanner = new LumenLineScanner(plan);
    const good = '{"seq":1,"kind":"vm_step","cell":"main","details":{"ip":0,"opcode":"Call"}}';
    assert.equal(scanner.read(Buffer.from(good)), true);
    for (const bad of [good.replace('main', 'ma\tin'), good.replace('Call', 'Ca\u0001ll'), good.replace('"ip"', '"i\np"')]) {
      assert.throws(() => JSON.parse(bad));
      assert.equal(scanner.read(Buffer.from(bad)), false, bad);
    }
  });

  it('finds a kind\'s fields from the spans only where the schema finds them in the parsed line', async () => {
    const lines = await lumenLines();
    const r = rng(43);
    const scanner = new LumenLineScanner(plan);
    const tally = { agree: 0, cautious: 0 };
    for (const base of lines) {
      for (const text of [base, ...EDITS.map((e) => e(base, r)), ...NESTED_EDITS.map((e) => e(base))]) {
        const bytes = Buffer.from(text, 'utf8');
        if (!scanner.read(bytes)) continue;
        const k = scanner.fast.kindIndex(SLOT.kind);
        if (k < 0) continue;
        const kind = LUMEN_KINDS[k];
        const fast = fastKindFieldsOk(kind, scanner.fast);
        const schema = kindFieldProblem(kind, JSON.parse(text)) === null;
        assert.ok(!fast || schema, `fields found in the spans, but the schema says: ${kindFieldProblem(kind, JSON.parse(text))} (${text})`);
        tally[fast === schema ? 'agree' : 'cautious']++;
      }
    }
    // It says no only where it cannot tell (never for the writer's own lines).
    assert.ok(tally.agree > lines.length && tally.cautious < tally.agree / 50, JSON.stringify(tally));
  });
});
