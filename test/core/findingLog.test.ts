import { strict as assert } from 'node:assert';
import { FindingLog } from '../../src/core/findingLog';
import type { Finding } from '../../src/core/model';

/** What the check engine did with an array: a stable sort by line, then rule. */
function engineOrder(findings: Finding[]): Finding[] {
  return findings.slice().sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
}

/** The log's findings as JSON text, key order included (the CLI's --json writes them so). */
function logged(findings: Finding[], sort = true): string[] {
  const log = new FindingLog();
  for (const f of findings) log.push(f);
  if (sort) log.sortByLine();
  assert.equal(log.length, findings.length);
  assert.equal(log.errors, findings.filter((f) => f.severity === 'error').length);
  return [...log].map((f) => JSON.stringify(f));
}

describe('FindingLog: findings kept compactly give back the same JSON, in the engine\'s order', () => {
  it('keeps every shape: seq and eventId in either order, left out or undefined, other keys and lone surrogates kept whole', () => {
    const shapes: Finding[] = [
      { rule: 'tree/dangling-parent', severity: 'warning', line: 3, eventId: 'e3', message: 'Parent gone3 is not in this trace.' },
      { rule: 'lumen/chain', severity: 'error', line: 2, seq: 7, eventId: 'évt-2 😀', message: 'Hash différent: 😀' },
      { rule: 'murmur/x', severity: 'info', line: 2, eventId: 'e2', seq: -0, message: '' },
      { rule: 'a/b', severity: 'error', line: 1, seq: undefined, eventId: undefined, message: 'no extras' },
      { rule: 'a/b', severity: 'error', line: 1, seq: 0.5, message: 'seq only' },
      // Not UTF-8 safe: kept as the object, and JSON.stringify writes \ud800 as before.
      { rule: 'a/c', severity: 'warning', line: 1, message: 'lone \ud800 surrogate' },
      { rule: 'a/c', severity: 'warning', line: 1, eventId: 'id\udfff', message: 'm' },
      // Another key order and an unknown key: kept whole.
      { message: 'first', rule: 'a/d', severity: 'warning', line: 4 } as Finding,
      { rule: 'a/e', severity: 'warning', line: 4, message: 'extra', blob: 'x' } as Finding,
    ];
    assert.deepEqual(logged(shapes, false), shapes.map((f) => JSON.stringify(f)));
    assert.deepEqual(logged(shapes), engineOrder(shapes).map((f) => JSON.stringify(f)));
    const noLine: Finding = { rule: 'a/f', severity: 'warning', line: Number.NaN, message: 'no line' };
    assert.deepEqual(logged([noLine]), [JSON.stringify(noLine)]);
  });

  it('orders 100,000 findings over several chunks and rules as the engine\'s stable sort does', () => {
    let seed = 41;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const rules = ['tree/dangling-parent', 'tree/cycle', 'parse/invalid-json', 'lumen/chain', 'Generic/Upper', 'generic/time-backwards'];
    const findings: Finding[] = [];
    for (let i = 0; i < 100_000; i++) {
      const f: Finding = { rule: rules[rand(rules.length)], severity: (['error', 'warning', 'info'] as const)[rand(3)], line: rand(5000) + 1, message: `finding ${i} ${'x'.repeat(rand(40))}` };
      if (rand(2)) f.seq = rand(1000);
      if (rand(2)) f.eventId = `e${rand(100)}`;
      findings.push(f);
    }
    assert.deepEqual(logged(findings), engineOrder(findings).map((f) => JSON.stringify(f)));
  });

  it('leaves findings already in order as they came', () => {
    const findings: Finding[] = [];
    for (let i = 0; i < 40_000; i++) findings.push({ rule: 'tree/dangling-parent', severity: 'warning', line: i + 1, eventId: `e${i}`, message: `Parent gone${i} is not in this trace; the event is shown as a root.` });
    assert.deepEqual(logged(findings), findings.map((f) => JSON.stringify(f)));
  });

  it('drains into another log in the order they came, leaving itself empty', () => {
    const findings: Finding[] = [];
    for (let i = 0; i < 50_000; i++) findings.push({ rule: i % 3 ? 'tree/dangling-parent' : 'tree/cycle', severity: i % 5 ? 'warning' : 'error', line: 50_000 - i, eventId: `e${i}`, message: `m${i}` });
    findings.push({ message: 'whole', rule: 'x/y', severity: 'error', line: 1 } as Finding);
    const from = new FindingLog();
    for (const f of findings) from.push(f);
    const to = new FindingLog();
    for (const f of from.drain()) to.push(f);
    assert.equal(from.length, 0);
    assert.deepEqual([...from], []);
    assert.deepEqual([...to].map((f) => JSON.stringify(f)), findings.map((f) => JSON.stringify(f)));
    to.sortByLine();
    assert.deepEqual([...to].map((f) => JSON.stringify(f)), engineOrder(findings).map((f) => JSON.stringify(f)));
  });

  it('keeps only what a decision by rule and severity keeps, at the severity it gives, and counts the errors so', () => {
    const findings: Finding[] = [];
    for (let i = 0; i < 30_000; i++) findings.push({ rule: ['tree/a', 'tree/b', 'tree/c'][i % 3], severity: i % 2 ? 'warning' : 'error', line: i, message: `m${i}` });
    findings.push({ message: 'whole', rule: 'tree/b', severity: 'warning', line: 7 } as Finding);
    const decide = (rule: string, severity: Finding['severity']): Finding['severity'] | null => (rule === 'tree/a' ? null : rule === 'tree/b' ? 'info' : severity);
    const log = new FindingLog();
    for (const f of findings) log.push(f);
    log.keepOnly(decide);
    const want = findings.flatMap((f) => {
      const s = decide(f.rule, f.severity);
      return s === null ? [] : [{ ...f, severity: s }];
    });
    assert.equal(log.length, want.length);
    assert.equal(log.errors, want.filter((f) => f.severity === 'error').length);
    log.push({ rule: 'late/one', severity: 'error', line: 3, message: 'added after' });
    want.push({ rule: 'late/one', severity: 'error', line: 3, message: 'added after' });
    log.sortByLine();
    assert.equal(log.errors, want.filter((f) => f.severity === 'error').length);
    assert.deepEqual([...log].map((f) => JSON.stringify(f)), engineOrder(want).map((f) => JSON.stringify(f)));
  });

  it('gives back messages kept as what differs from their rule\'s first one: numbers, emoji pairs at the edges, equal and long ones', () => {
    const long = 'x'.repeat(70_000);
    const messages = [
      'Parent gone1 is not in this trace; the event is shown as a root.',
      'Parent gone2 is not in this trace; the event is shown as a root.',
      'Parent gone1 is not in this trace; the event is shown as a root.',
      'Parent 😀 is not in this trace; the event is shown as a root.',
      'Parent 😁 is not in this trace; the event is shown as a root.',
      'Parent 😀😀 is not 😁',
      'Parent 😀',
      '😀 tail',
      '😁 tail',
      '',
      'P',
      `${long}a${long}`,
      `${long}b${long}`,
      `${long}b${long}`,
      'Parent gone1',
    ];
    const findings: Finding[] = messages.map((message, i) => ({ rule: i % 4 === 3 ? 'tree/cycle' : 'tree/dangling-parent', severity: 'warning', line: i + 1, eventId: `e${i}`, message }));
    for (let i = 0; i < 20_000; i++) findings.push({ rule: 'tree/dangling-parent', severity: 'warning', line: 100 + i, message: `Parent gone${i * 7919} is not in this trace; the event is shown as a root.` });
    assert.deepEqual(logged(findings, false), findings.map((f) => JSON.stringify(f)));
    const from = new FindingLog();
    for (const f of findings) from.push(f);
    assert.deepEqual([...from.drain()].map((f) => JSON.stringify(f)), findings.map((f) => JSON.stringify(f)));
  });
});
