import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { costOf } from '../../src/core/usage/cost';
import { priceOf, readPricing } from '../../src/core/usage/prices';
import { MAX_PRICING_BYTES } from '../../src/cli/pricingOption';
import { tempDir, tempFile } from '../helpers/tmp';
import { runCliInProcess as runCli } from '../helpers/cliInProcess';

/** A real Claude Code session (8 model calls of claude-sonnet-4-5-20250929), its model renamed. */
const SESSION = 'samples/claude-code/921f39d1-40c5-4a48-826b-c8319e0f40bc.jsonl';
const REAL_MODEL = 'claude-sonnet-4-5-20250929';
const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

function sessionAs(model: string, dir = tempDir()): string {
  return tempFile(`${model}.jsonl`, readFileSync(SESSION, 'utf8').split(REAL_MODEL).join(model), dir);
}

interface ModelRow { model: string; costUsd: number | null; costSource: string | null }
interface Usage { total: { costUsd: number | null }; byModel: ModelRow[]; unpriced: { model: string; reason: string }[] }

async function usageOf(...args: string[]): Promise<Usage> {
  const r = await runCli('summary', '--json', ...args);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out).usage as Usage;
}

describe('--pricing and prices on hostile input (issue 41 b)', function () {
  this.timeout(60000);

  it('a FIFO, a device, a directory and an oversized file are refused (exit 2) without being read, never hanging', async function () {
    const dir = tempDir();
    const trace = sessionAs('m', dir);
    const cases: [string, RegExp][] = [[dir, /a directory, not a regular file/]];
    if (existsSync('/dev/zero')) cases.push(['/dev/zero', /a device, not a regular file/]);
    if (process.platform !== 'win32') {
      const fifo = join(dir, 'prices.fifo');
      execFileSync('mkfifo', [fifo]);
      cases.push([fifo, /a FIFO \(named pipe\), not a regular file/]);
    }
    const big = tempFile('big.json', `{"m":{"input":1,"output":2}}${' '.repeat(MAX_PRICING_BYTES)}`, dir);
    cases.push([big, /over the 4 MiB limit for a price file/]);
    for (const [file, message] of cases) {
      const r = await runCli('summary', '--pricing', file, trace);
      assert.equal(r.code, 2, `${file}: ${r.err}`);
      assert.match(r.err, message);
    }
  });

  it('a price file with a UTF-8 byte order mark is read', async () => {
    const dir = tempDir();
    const prices = tempFile('p.json', '\uFEFF{"m":{"input":1,"output":2}}', dir);
    const u = await usageOf('--pricing', prices, sessionAs('m', dir));
    const row = u.byModel.find((m) => m.model === 'm')!;
    assert.equal(row.costSource, 'table');
    assert.ok(typeof row.costUsd === 'number' && row.costUsd > 0, JSON.stringify(row));
  });

  it('models named like Object.prototype members are unpriced, not "priced from the table" with a null cost', async () => {
    assert.equal(priceOf('constructor'), undefined);
    assert.equal(priceOf('__proto__'), undefined);
    for (const name of PROTOTYPE_NAMES) {
      const u = await usageOf(sessionAs(name));
      const row = u.byModel.find((m) => m.model === name)!;
      assert.deepEqual([row.costUsd, row.costSource], [null, null], `${name}: ${JSON.stringify(row)}`);
      assert.match(u.unpriced.find((m) => m.model === name)?.reason ?? '', /not in the bundled prices/, name);
    }
  });

  it('a price file may price models named like Object.prototype members, __proto__ included, as own keys', async () => {
    const { prices, problems } = readPricing(JSON.parse('{"__proto__":{"input":1,"output":2},"constructor":{"input":3,"output":4}}'));
    assert.deepEqual(problems, []);
    assert.equal(Object.getPrototypeOf(prices), Object.prototype);
    assert.deepEqual(Object.keys(prices), ['__proto__', 'constructor']);
    assert.equal(priceOf('__proto__', prices)?.from, 'user');
    assert.equal(priceOf('toString', prices), undefined);
    const dir = tempDir();
    const file = tempFile('p.json', '{"__proto__":{"input":1,"output":2}}', dir);
    const row = (await usageOf('--pricing', file, sessionAs('__proto__', dir))).byModel[0];
    assert.equal(row.costSource, 'table');
    assert.ok(typeof row.costUsd === 'number' && row.costUsd > 0, JSON.stringify(row));
  });

  it('a cost that overflows is refused with its reason, never a silent null beside "priced"', async () => {
    const huge = priceOf('m', { m: { input: 1e308, output: 1e308 } })!;
    assert.equal(costOf({ input: 1000, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: null }, huge, false), null);
    const dir = tempDir();
    const file = tempFile('p.json', '{"m":{"input":1e308,"output":1e308}}', dir);
    const u = await usageOf('--pricing', file, sessionAs('m', dir));
    const row = u.byModel.find((m) => m.model === 'm')!;
    assert.deepEqual([row.costUsd, row.costSource], [null, null]);
    assert.equal(u.total.costUsd, null);
    assert.match(u.unpriced.find((m) => m.model === 'm')?.reason ?? '', /overflows/);
  });

  it('costs a trace records that each fit a number but whose sum does not are refused, not summed to a null', async () => {
    // The real OTLP run, each model call recording a cost of 1e308 US dollars: 8 of them overflow.
    const doc = JSON.parse(readFileSync('samples/otlp/trace.otlp.json', 'utf8'));
    let calls = 0;
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const span of ss.spans) {
      if (span.attributes.some((a: { key: string }) => a.key === 'gen_ai.usage.input_tokens')) {
        span.attributes.push({ key: 'gen_ai.usage.cost', value: { doubleValue: 1e308 } });
        calls++;
      }
    }
    assert.ok(calls > 1);
    const u = await usageOf(tempFile('trace.otlp.json', JSON.stringify(doc)));
    // The records whose cost would overflow the sum are left unpriced, with why; what is summed stays a number.
    for (const row of u.byModel) assert.ok(row.costUsd === null || Number.isFinite(row.costUsd), JSON.stringify(row));
    assert.ok(Number.isFinite(u.total.costUsd), String(u.total.costUsd));
    assert.ok(u.unpriced.some((m) => /overflows/.test(m.reason)), JSON.stringify(u.unpriced));
  });

  it('a command named like an Object.prototype member is an unknown command (exit 2)', async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      const r = await runCli(name);
      assert.equal(r.code, 2, `${name}: ${r.err}`);
      assert.match(r.err, /unknown command/);
    }
  });
});
