import { strict as assert } from 'node:assert';
import { gunzipSync } from 'node:zlib';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { main } from '../../src/cli/main';
import { loadTrace } from '../../src/core/loadTrace';
import { tempDir } from '../helpers/tmp';
import { basename } from 'node:path';
import { version } from '../../package.json';
import { traceToOtlpJson } from '../../src/core/export/otlpExport';

const SCHEMA = JSON.parse(readFileSync('test/fixtures/otlp/otlp-trace-request.schema.json', 'utf8'));
const compiled = new Ajv({ strict: true }).compile(SCHEMA);
/** Not a type guard: narrowing the document to `unknown` would only get in the way of the checks after it. */
const validate = Object.assign((doc: unknown): boolean => compiled(doc), { get errors() { return compiled.errors; } });
const MURMUR = 'samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A one-route OTLP/HTTP receiver on 127.0.0.1 that records requests and answers with `status` and `reply`. */
async function receiver(status: number, reply: string): Promise<{ server: Server; url: string; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // The sender gzips its bodies (Content-Encoding: gzip): read as a receiver does.
      const raw = Buffer.concat(chunks);
      const body = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      got.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json' }).end(reply);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

/** Runs the CLI in this process and captures what it writes to stderr. */
async function run(argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const orig = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => ((err += chunk), true)) as typeof process.stderr.write;
  try {
    return { code: await main(argv), err };
  } finally {
    process.stderr.write = orig;
  }
}

describe('agent-trace export --otlp --endpoint', () => {
  const servers: Server[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  it('POSTs the spans as OTLP/JSON to URL/v1/traces with the headers of OTEL_EXPORTER_OTLP_HEADERS', async () => {
    const r = await receiver(200, '{}');
    servers.push(r.server);
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'authorization=Bearer%20t0ken,x-team=agents';
    try {
      const res = await run(['export', MURMUR, '--otlp', '--endpoint', r.url]);
      assert.equal(res.code, 0, res.err);
      assert.match(res.err, /sent \d+ spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces in 1 request/);
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
    }
    assert.equal(r.got.length, 1);
    const [req] = r.got;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/v1/traces');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers.authorization, 'Bearer t0ken');
    assert.equal(req.headers['x-team'], 'agents');
    const doc: any = JSON.parse(req.body);
    assert.ok(validate(doc), JSON.stringify(validate.errors));
    const spans = doc.resourceSpans[0].scopeSpans[0].spans;
    assert.equal(spans.length, (await loadTrace(MURMUR)).events.size);
    assert.ok(spans.some((s: { attributes: { key: string }[] }) => s.attributes.some((a) => a.key === 'gen_ai.usage.input_tokens')));
  });

  it('exits 2 naming the URL and the status when the receiver refuses, and reports rejected spans', async () => {
    const r = await receiver(400, '{"error":"bad payload"}');
    servers.push(r.server);
    const res = await run(['export', MURMUR, '--otlp', '--endpoint', `${r.url}/v1/traces`]);
    assert.equal(res.code, 2);
    assert.match(res.err, /\/v1\/traces answered 400 Bad Request: \{"error":"bad payload"\}/);
    const partial = await receiver(200, '{"partialSuccess":{"rejectedSpans":"3","errorMessage":"too old"}}');
    servers.push(partial.server);
    const p = await run(['export', MURMUR, '--otlp', '--endpoint', partial.url]);
    assert.equal(p.code, 2);
    assert.match(p.err, /rejected 3 spans: too old/);
  });

  it('does not follow a redirect to another origin with the key of OTEL_EXPORTER_OTLP_HEADERS, and does not say sent', async () => {
    const other = await receiver(200, '{}');
    servers.push(other.server);
    const first = createServer((_req, res) => res.writeHead(307, { location: `${other.url}/v1/traces` }).end());
    await new Promise<void>((r) => first.listen(0, '127.0.0.1', r));
    servers.push(first);
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-api-key=k3y-0123456789abcdef';
    try {
      const res = await run(['export', MURMUR, '--otlp', '--endpoint', `http://127.0.0.1:${(first.address() as AddressInfo).port}`]);
      assert.equal(res.code, 2);
      assert.equal(other.got.length, 0);
      assert.ok(res.err.includes(`pointing to ${other.url}/v1/traces on another origin: not followed`), res.err);
      assert.ok(!res.err.includes('sent ') && !res.err.includes('k3y-0123456789abcdef'), res.err);
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
    }
  });

  it('says where it sent with the password masked, after telling of a retry; refuses a header with a line break', async () => {
    let n = 0;
    const got: string[] = [];
    const server = createServer((req, res) => {
      got.push(req.headers.authorization ?? '');
      req.resume().on('end', () => (n++ === 0 ? res.writeHead(503, { 'retry-after': '0' }).end() : res.writeHead(200).end('{}')));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const res = await run(['export', MURMUR, '--otlp', '--endpoint', `http://alice:s3cret-pw@127.0.0.1:${port}`]);
    assert.equal(res.code, 0, res.err);
    assert.match(res.err, new RegExp(`answered 503 Service Unavailable; trying again in 0 s \\(retry 1 of 3\\)\n.*sent \\d+ spans to http://\\*\\*\\*@127\\.0\\.0\\.1:${port}/v1/traces in 1 request`));
    assert.ok(!res.err.includes('s3cret') && !res.err.includes('alice'), res.err);
    assert.equal(got.length, 2);
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-api-key=k3y%0Aevil';
    try {
      const bad = await run(['export', MURMUR, '--otlp', '--endpoint', `http://127.0.0.1:${port}`]);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /the value of header x-api-key holds a line break \(CR or LF\); nothing was sent/);
      assert.ok(!bad.err.includes('k3y') && !bad.err.includes('evil'), bad.err);
      assert.equal(got.length, 2);
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
    }
  });

  it('exits 2 with a clear message when nothing listens, and refuses bad usage', async () => {
    const r = await receiver(200, '{}');
    const url = r.url;
    await new Promise((done) => r.server.close(done));
    const res = await run(['export', MURMUR, '--otlp', '--endpoint', url]);
    assert.equal(res.code, 2);
    assert.match(res.err, /cannot send to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: ECONNREFUSED/);
    assert.match((await run(['export', MURMUR, '--otlp', '--endpoint', 'ftp://x'])).err, /needs an http or https URL/);
    assert.equal((await run(['export', MURMUR, '--otlp', '--endpoint', url, '-o', `${tempDir()}/x.json`])).code, 2);
    assert.equal((await run(['export', MURMUR])).code, 2);
  });

  it('writes -o as the indented document, streamed, and exits 2 with a message when the file cannot be written', async () => {
    const dir = tempDir();
    const out = `${dir}/spans.json`;
    assert.equal((await run(['export', MURMUR, '--otlp', '-o', out])).code, 0);
    const whole = JSON.stringify(JSON.parse(traceToOtlpJson(await loadTrace(MURMUR), { version, fileName: basename(MURMUR) })[0]), null, 2);
    assert.equal(readFileSync(out, 'utf8'), whole);
    const res = await run(['export', MURMUR, '--otlp', '-o', `${dir}/no-such-folder/spans.json`]);
    assert.equal(res.code, 2);
    assert.match(res.err, /no-such-folder\/spans\.json: cannot write: no such file/);
  });
});
