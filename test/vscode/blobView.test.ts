import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { installFakeVscode, vscodeFake } from '../helpers/fakeVscode';
import { loadTrace } from '../../src/core/loadTrace';

installFakeVscode();
class DocumentLink {
  tooltip?: string;
  constructor(readonly range: { startLine: number; startChar: number; endLine: number; endChar: number }, readonly target: { scheme: string; path: string; query: string }) {}
}
// Added before the modules load: the bundler's namespace import sees only properties present then.
(vscodeFake as unknown as Record<string, unknown>).DocumentLink ??= DocumentLink;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TraceBlobs } = require('../../src/viewer/blobResolver') as typeof import('../../src/viewer/blobResolver');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const docsMod = require('../../src/vscode/blobs/blobDocuments') as typeof import('../../src/vscode/blobs/blobDocuments');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const linksMod = require('../../src/vscode/blobs/blobLinks') as typeof import('../../src/vscode/blobs/blobLinks');
import { corpusPath } from '../helpers/corpus';

const SESSION = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf');
const TRACE = join(SESSION, 'trace.jsonl');
const USER_MSG = 'a541255ba83f1a60aca6694511e5a9d9711c28557163223a615ebe4ca54863ed';
const SYSTEM = '28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f';

/** A URI with a query (the shared fake has none), swapped in for these tests only. */
class QUri {
  constructor(readonly scheme: string, readonly path: string, readonly query = '') {}
  static file(p: string): QUri {
    return new QUri('file', p);
  }
  static parse(s: string): QUri {
    const m = /^([a-z][\w+.-]*):(?:\/\/[^/]*)?([^?#]*)(?:\?([^#]*))?/i.exec(s)!;
    return new QUri(m[1], decodeURIComponent(m[2]), m[3] ?? '');
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}:${this.scheme === 'file' ? '//' : ''}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

/** A text document over a file's lines. */
function textDoc(path: string) {
  const lines = readFileSync(path, 'utf8').split('\n');
  return { uri: QUri.file(path), lineCount: lines.length, lineAt: (i: number) => ({ text: lines[i] }) };
}

const settings = () => ({ extraRoots: [], workspaceFolders: [] });
const noCancel = { isCancellationRequested: false } as never;

describe('blob view (host): resolver, links and blob documents', () => {
  const fakeAny = vscodeFake as unknown as Record<string, unknown>;
  const saved = { Uri: fakeAny.Uri };
  let tmp = '';
  before(() => {
    fakeAny.Uri = QUri;
    tmp = mkdtempSync(join(tmpdir(), 'atv-blobview-unit-'));
  });
  after(() => {
    fakeAny.Uri = saved.Uri;
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A copy of the corpus session with one blob edited. */
  function tamperedCopy(): string {
    const dir = mkdtempSync(join(tmp, 'ses-'));
    cpSync(SESSION, dir, { recursive: true });
    for (const f of readdirSync(join(dir, 'blobs'))) chmodSync(join(dir, 'blobs', f), 0o644);
    writeFileSync(join(dir, 'blobs', USER_MSG), readFileSync(join(dir, 'blobs', USER_MSG), 'utf8').replace('list', 'LIST'));
    return dir;
  }

  it('resolves every blob of the corpus murmur session as verified, with previews, JSON and messages', async () => {
    const model = await loadTrace(TRACE);
    const blobs = new TraceBlobs(settings);
    const digests = new Set(model.events.eventsWithHashRefs().flatMap((i) => model.events.hashRefsOf(i).map((r) => r.digest)));
    assert.equal(digests.size, 7);
    for (const d of digests) {
      const a = await blobs.answer(TRACE, model, d, 'sha256');
      assert.equal(a.state, 'verified', `${d}: ${a.message}`);
      assert.equal(a.actual, d);
      assert.equal(a.message, null);
    }
    const sys = await blobs.answer(TRACE, model, SYSTEM, 'sha256');
    assert.deepEqual([sys.preview, sys.bytes, sys.language, sys.json, sys.path], ['Be terse.', 9, 'plaintext', undefined, `blobs/${SYSTEM}`]);
    const user = await blobs.answer(TRACE, undefined, USER_MSG, 'sha256'); // not open: the format is sniffed
    assert.deepEqual(user.json, { content: 'list the files', role: 'user' });
    assert.equal(user.chat?.[0].role, 'user');
    assert.deepEqual(user.chat?.[0].parts, [{ type: 'text', text: 'list the files' }]);
  });

  it('reports a tampered copy as a mismatch with expected and actual digests, and a deleted blob as missing', async () => {
    const dir = tamperedCopy();
    const trace = join(dir, 'trace.jsonl');
    const model = await loadTrace(trace);
    const blobs = new TraceBlobs(settings);
    const a = await blobs.answer(trace, model, USER_MSG, 'sha256');
    const actual = createHash('sha256').update(readFileSync(join(dir, 'blobs', USER_MSG))).digest('hex');
    assert.deepEqual([a.state, a.expected, a.actual], ['mismatch', USER_MSG, actual]);
    assert.match(a.message ?? '', new RegExp(`expected .*${USER_MSG}.*actual ${actual}`));
    assert.match(a.preview ?? '', /LIST the files/, 'the content is still previewed');
    assert.equal((await blobs.answer(trace, model, SYSTEM, 'sha256')).state, 'verified');
    rmSync(join(dir, 'blobs', SYSTEM));
    const gone = await blobs.answer(trace, model, SYSTEM, 'sha256');
    assert.deepEqual([gone.state, gone.preview], ['missing', null]);
  });

  it('bounds previews and resolves agentledger payload_ref blobs', async () => {
    const dir = mkdtempSync(join(tmp, 'big-'));
    cpSync(SESSION, dir, { recursive: true });
    const body = Buffer.from(`"${'x'.repeat(300 * 1024)}"`);
    const digest = createHash('sha256').update(body).digest('hex');
    writeFileSync(join(dir, 'blobs', digest), body);
    const big = await new TraceBlobs(settings).answer(join(dir, 'trace.jsonl'), undefined, digest, 'sha256');
    assert.deepEqual([big.state, big.truncated, big.preview?.length, big.bytes], ['verified', true, 256 * 1024, body.length]);
    const ledger = corpusPath('agentledger/approval-denied/trace.jsonl');
    const lm = await loadTrace(ledger);
    const refs = lm.events.eventsWithHashRefs().flatMap((i) => lm.events.hashRefsOf(i)).filter((r) => r.raw.startsWith('blob://'));
    assert.ok(refs.length > 0);
    const blobs = new TraceBlobs(settings);
    for (const r of refs) {
      const a = await blobs.answer(ledger, lm, r.digest, r.algorithm);
      assert.equal(a.state, 'verified', `${r.field} ${r.raw}: ${a.message}`);
      assert.ok(a.json !== undefined, 'agentledger blobs are JSON');
    }
  });

  it('links the blob hashes on a murmur line, exactly over each digest', () => {
    const lines = readFileSync(TRACE, 'utf8').split('\n');
    const file = QUri.file(TRACE);
    const uri = file as never;
    const links = linksMod.linksOnLine('murmur', uri, 4, lines[4]) as unknown as DocumentLink[];
    const texts = links.map((l) => lines[4].slice(l.range.startChar, l.range.endChar));
    assert.equal(links.length, 6);
    assert.deepEqual(new Set(texts), new Set(['28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f', '143f541e445d0e75c221905b6a8c72a44775a5aba0db481a8c192c11bb71fb44', '19374ad7febf105acb1c66d185a4378b3eaf0de9d141219481855822330d46e4', USER_MSG, '70c9f98d633d3f3f4e55f999901e218d7e1ae2ebc0af9b01cd8aeb38b45ffa6a', '6a82b0b5e58b3fd8cb37fec0304813bfd8d048390705e50b1dd39efce75987e6']));
    assert.ok(links.every((l) => l.range.startLine === 4 && l.range.endLine === 4));
    const target = links.find((l) => lines[4].slice(l.range.startChar, l.range.endChar) === USER_MSG)!.target;
    assert.equal(target.scheme, 'command');
    assert.equal(target.path, 'agentTrace.openBlob');
    assert.deepEqual(JSON.parse(decodeURIComponent(target.query)), [file.toString(), USER_MSG, 'sha256']);
    assert.deepEqual(linksMod.linksOnLine('murmur', uri, 3, lines[3]), [], 'tool_call has no blob refs');
  });

  it('gives links for a trace with a blob store and none for other JSONL', async () => {
    const provider = new linksMod.BlobLinkProvider(new TraceBlobs(settings));
    const links = await provider.provideDocumentLinks(textDoc(TRACE) as never, noCancel);
    assert.equal(links.length, 1 + 4 + 6);
    const plain = join(tmp, 'plain.jsonl');
    writeFileSync(plain, `{"a":1,"system_sha":"${SYSTEM}"}\n{"b":"blob://sha256/${'0'.repeat(64)}.json"}\n`);
    assert.deepEqual(await provider.provideDocumentLinks(textDoc(plain) as never, noCancel), [], 'no blob store, no links');
  });

  it('serves blobs as read-only documents titled with short digest and state, with the language of the content', async () => {
    const blobs = new TraceBlobs(settings);
    const model = await loadTrace(TRACE);
    const docs = new docsMod.BlobDocumentProvider(blobs, () => model);
    const trace = (QUri.file(TRACE) as unknown as { toString(): string }).toString();
    const uri = docsMod.blobDocumentUri({ trace, digest: USER_MSG, algorithm: 'sha256' }, 'verified') as unknown as QUri;
    assert.equal(uri.scheme, docsMod.BLOB_SCHEME);
    assert.equal(uri.path, '/a541255b…63ed ✓ verified');
    assert.equal(await docs.provideTextDocumentContent(uri as never), '{"content":"list the files","role":"user"}');
    assert.equal(docs.languages.get(uri.toString()), 'json');
    const sys = docsMod.blobDocumentUri({ trace, digest: SYSTEM, algorithm: 'sha256' }, 'verified') as never;
    assert.equal(await docs.provideTextDocumentContent(sys), 'Be terse.');
    assert.equal(docs.languages.get(String(sys)), 'plaintext');
    const dir = tamperedCopy();
    const t2 = (QUri.file(join(dir, 'trace.jsonl')) as unknown as { toString(): string }).toString();
    const bad = docsMod.blobDocumentUri({ trace: t2, digest: USER_MSG, algorithm: 'sha256' }, 'mismatch') as unknown as QUri;
    assert.equal(bad.path, '/a541255b…63ed ✗ mismatch');
    assert.match(await new docsMod.BlobDocumentProvider(blobs, () => undefined).provideTextDocumentContent(bad as never), /LIST the files/);
    const missing = docsMod.blobDocumentUri({ trace, digest: 'f'.repeat(64), algorithm: 'sha256' }, 'missing') as never;
    assert.match(await docs.provideTextDocumentContent(missing), /Missing blob/);
    assert.equal(docsMod.parseBlobDocumentUri(QUri.parse('agent-trace-blob:/x?not-json') as never), null);
  });
});
