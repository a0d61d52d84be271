import { strict as assert } from 'node:assert';
import { gunzipSync } from 'node:zlib';
import { createServer, IncomingMessage, ServerResponse, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { OtlpPostError, OtlpPostOptions, otlpTracesUrl, parseOtlpHeaders, postOtlpJson, shownOtlpUrl } from '../../../src/core/export/otlpHttp';

interface Got {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback receiver: `answer` is called with each request (body read) and the number of requests before it. */
async function loopback(answer: (req: Got, res: ServerResponse, n: number) => void): Promise<{ server: Server; origin: string; got: Got[] }> {
  const got: Got[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // The sender gzips its bodies (Content-Encoding: gzip): read as a receiver does.
      const raw = Buffer.concat(chunks);
      const body = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      const g = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      got.push(g);
      answer(g, res, got.length - 1);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

/** The error `postOtlpJson` fails with; the test fails when it succeeds or throws something else. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof OtlpPostError, String(err));
    return err.message;
  }
  assert.fail('expected the export to fail');
}

const BODY = '{"resourceSpans":[]}';
const API_KEY = 'k3y-0123456789abcdef';

describe('OTLP/HTTP sender (postOtlpJson)', () => {
  const servers: Server[] = [];
  let sleeps: number[];
  /** Options with the waits recorded instead of slept. */
  const fast = (extra: OtlpPostOptions = {}): OtlpPostOptions => ({ sleep: async (ms) => void sleeps.push(ms), ...extra });
  beforeEach(() => (sleeps = []));
  afterEach(() =>
    servers.splice(0).forEach((s) => {
      s.closeAllConnections();
      s.close();
    }),
  );
  async function serve(answer: (req: Got, res: ServerResponse, n: number) => void): Promise<{ origin: string; got: Got[] }> {
    const s = await loopback(answer);
    servers.push(s.server);
    return s;
  }

  describe('redirects', () => {
    for (const status of [307, 308]) {
      it(`does not follow a ${status} to another origin: that server receives nothing, the error names it`, async () => {
        const other = await serve((_req, res) => res.writeHead(200).end('{}'));
        const first = await serve((_req, res) => res.writeHead(status, { location: `${other.origin}/v1/traces` }).end());
        const msg = await failure(postOtlpJson(first.origin, [BODY], fast({ headers: { 'x-api-key': API_KEY } })));
        assert.equal(other.got.length, 0, 'the other origin received a request');
        assert.equal(first.got.length, 1);
        assert.ok(msg.includes(`${other.origin}/v1/traces`), msg);
        assert.match(msg, new RegExp(`answered ${status} .*another origin: not followed`));
        assert.ok(!msg.includes(API_KEY), msg);
        assert.ok(!/\bsent\b/.test(msg), msg);
      });
    }

    it('masks credentials in the place a redirect points to', async () => {
      const first = await serve((_req, res) => res.writeHead(307, { location: 'http://bob:hunter22@198.51.100.7/v1/traces' }).end());
      const msg = await failure(postOtlpJson(first.origin, [BODY], fast()));
      assert.ok(msg.includes('http://***@198.51.100.7/v1/traces'), msg);
      assert.ok(!msg.includes('hunter22') && !msg.includes('bob'), msg);
    });

    it('follows a same-origin 307/308 with the body, and reports where the spans went', async () => {
      const s = await serve((req, res) => {
        if (req.url === '/v1/traces') return void res.writeHead(307, { location: '/moved/v1/traces' }).end();
        if (req.url === '/moved/v1/traces') return void res.writeHead(308, { location: '/final/v1/traces' }).end();
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
      const r = await postOtlpJson(s.origin, [BODY], fast({ headers: { 'x-api-key': API_KEY } }));
      assert.deepEqual(s.got.map((g) => [g.method, g.url, g.body, g.headers['x-api-key']]), [
        ['POST', '/v1/traces', BODY, API_KEY],
        ['POST', '/moved/v1/traces', BODY, API_KEY],
        ['POST', '/final/v1/traces', BODY, API_KEY],
      ]);
      assert.equal(r.url, `${s.origin}/final/v1/traces`);
      assert.equal(r.endpointUrl, `${s.origin}/v1/traces`);
    });

    it('stops after 3 same-origin redirects', async () => {
      const s = await serve((_req, res) => res.writeHead(307, { location: '/v1/traces' }).end());
      const msg = await failure(postOtlpJson(s.origin, [BODY], fast()));
      assert.equal(s.got.length, 4);
      assert.match(msg, /redirected more than 3 times/);
    });

    for (const status of [301, 302, 303]) {
      it(`never reports a ${status} as sent, and does not turn the POST into a GET`, async () => {
        const s = await serve((req, res) => {
          if (req.url === '/v1/traces') return void res.writeHead(status, { location: '/elsewhere' }).end();
          res.writeHead(200).end('{}');
        });
        const msg = await failure(postOtlpJson(s.origin, [BODY], fast()));
        assert.deepEqual(s.got.map((g) => [g.method, g.url]), [['POST', '/v1/traces']]);
        assert.match(msg, new RegExp(`answered ${status} .*pointing to ${s.origin}/elsewhere: not followed`));
      });
    }
  });

  describe('retries', () => {
    it('sends again after a 429 with Retry-After: 0, and reports the retry', async () => {
      const s = await serve((_req, res, n) => (n === 0 ? res.writeHead(429, { 'retry-after': '0' }).end('slow down') : res.writeHead(200).end('{}')));
      const told: string[] = [];
      const r = await postOtlpJson(s.origin, [BODY], fast({ onRetry: (m) => told.push(m) }));
      assert.equal(s.got.length, 2);
      assert.equal(s.got[1].body, BODY);
      assert.deepEqual(sleeps, [0]);
      assert.equal(r.retries, 1);
      assert.equal(r.requests, 1);
      assert.equal(told.length, 1);
      assert.match(told[0], /answered 429 Too Many Requests; trying again in 0 s \(retry 1 of 3\)/);
    });

    it('gives up on a 503 that never ends after 3 retries with exponential backoff', async () => {
      const s = await serve((_req, res) => res.writeHead(503).end('overloaded'));
      const msg = await failure(postOtlpJson(s.origin, [BODY], fast({ backoffMs: 100 })));
      assert.equal(s.got.length, 4);
      assert.deepEqual(sleeps, [100, 200, 400]);
      assert.match(msg, /answered 503 Service Unavailable: overloaded \(gave up after 4 tries\)/);
    });

    it('honours Retry-After as an HTTP date, and caps the backoff', async () => {
      const now = Date.parse('2026-01-01T00:00:00Z');
      const s = await serve((_req, res, n) =>
        n === 0 ? res.writeHead(503, { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }).end() : n < 3 ? res.writeHead(502).end() : res.writeHead(200).end('{}'),
      );
      const r = await postOtlpJson(s.origin, [BODY], fast({ now: () => now, backoffMs: 40_000 }));
      assert.deepEqual(sleeps, [5000, 30_000, 30_000]);
      assert.equal(r.retries, 3);
    });

    it('fails at once when Retry-After asks for longer than it waits', async () => {
      const s = await serve((_req, res) => res.writeHead(429, { 'retry-after': '120' }).end());
      const msg = await failure(postOtlpJson(s.origin, [BODY], fast()));
      assert.equal(s.got.length, 1);
      assert.deepEqual(sleeps, []);
      assert.match(msg, /asks to wait 120 s, longer than the 30 s this waits/);
    });

    it('sends again when the connection is reset, at most twice', async () => {
      const once = await serve((_req, res, n) => (n === 0 ? res.socket?.destroy() : res.writeHead(200).end('{}')));
      const r = await postOtlpJson(once.origin, [BODY], fast());
      assert.equal(once.got.length, 2);
      assert.equal(r.retries, 1);
      const always = await serve((_req, res) => res.socket?.destroy());
      const msg = await failure(postOtlpJson(always.origin, [BODY], fast()));
      assert.equal(always.got.length, 3);
      assert.match(msg, /^cannot send to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: (ECONNRESET|UND_ERR_SOCKET|EPIPE)$/);
    });

    it('does not retry a 400 or 500', async () => {
      const s = await serve((_req, res) => res.writeHead(500).end('boom'));
      await failure(postOtlpJson(s.origin, [BODY], fast()));
      assert.equal(s.got.length, 1);
    });
  });

  describe('answers', () => {
    /** A receiver that streams `total` bytes with backpressure and counts what it managed to write. */
    async function flood(status: number, total: number): Promise<{ origin: string; written: () => number; closed: Promise<void> }> {
      let written = 0;
      let closed!: () => void;
      const done = new Promise<void>((r) => (closed = r));
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const s = await serve((_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.on('close', () => closed());
        const pump = (): void => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      });
      return { origin: s.origin, written: () => written, closed: done };
    }

    it('reads a huge error answer only up to its cap, and the message stays short', async () => {
      const f = await flood(400, 400 * 1024 * 1024);
      const msg = await failure(postOtlpJson(f.origin, [BODY], fast()));
      await f.closed;
      assert.ok(f.written() < 32 * 1024 * 1024, `the receiver wrote ${f.written()} bytes before the client closed`);
      assert.ok(msg.length < 400, `${msg.length} characters`);
      assert.match(msg, /answered 400 Bad Request: x+$/);
    });

    it('reports a 200 with a huge answer as sent without reading it all', async () => {
      const f = await flood(200, 400 * 1024 * 1024);
      const r = await postOtlpJson(f.origin, [BODY], fast());
      await f.closed;
      assert.equal(r.requests, 1);
      assert.equal(r.rejectedSpans, 0);
      assert.ok(f.written() < 32 * 1024 * 1024, `the receiver wrote ${f.written()} bytes before the client closed`);
    });
  });

  describe('secrets', () => {
    /** Answers 401 with every request header echoed, as some gateways do. */
    const echo = (req: Got, res: ServerResponse): void => void res.writeHead(401).end(JSON.stringify(req.headers));

    it('sends user:password of the URL as Basic credentials and never shows them', async () => {
      const s = await serve(echo);
      const url = s.origin.replace('//', '//alice:s3cret-pw@');
      const msg = await failure(postOtlpJson(url, [BODY], fast()));
      assert.equal(s.got[0].headers.authorization, `Basic ${Buffer.from('alice:s3cret-pw').toString('base64')}`);
      assert.ok(msg.includes(`http://***@127.0.0.1:`), msg);
      for (const secret of ['s3cret-pw', 'pw', 'alice', Buffer.from('alice:s3cret-pw').toString('base64')]) assert.ok(!msg.includes(secret), `${secret} in ${msg}`);
      assert.equal(shownOtlpUrl(url), `${s.origin.replace('//', '//***@')}/v1/traces`);
    });

    it('masks header values in an answer that echoes them, and in the "sent to" URL', async () => {
      const s = await serve(echo);
      const msg = await failure(postOtlpJson(s.origin, [BODY], fast({ headers: { 'x-api-key': API_KEY, authorization: 'Bearer t0ken-abcdef' } })));
      assert.equal(s.got[0].headers['x-api-key'], API_KEY);
      assert.ok(!msg.includes(API_KEY) && !msg.includes('t0ken-abcdef'), msg);
      assert.match(msg, /"x-api-key":"\*\*\*"/);
      const ok = await serve((_req, res) => res.writeHead(200).end('{}'));
      const r = await postOtlpJson(ok.origin.replace('//', '//u:longpassword@'), [BODY], fast());
      assert.equal(r.url, `${ok.origin.replace('//', '//***@')}/v1/traces`);
    });

    it('refuses a header value with CR or LF, naming the header and not its value; nothing is sent', async () => {
      const s = await serve((_req, res) => res.writeHead(200).end('{}'));
      for (const value of [`${API_KEY}\r\nx-evil: 1`, `${API_KEY}\n`]) {
        const msg = await failure(postOtlpJson(s.origin, [BODY], fast({ headers: { 'x-api-key': value } })));
        assert.equal(msg, 'the value of header x-api-key holds a line break (CR or LF); nothing was sent');
      }
      const bad = await failure(postOtlpJson(s.origin, [BODY], fast({ headers: { [`x-api-key: ${API_KEY}`]: 'v' } })));
      assert.ok(!bad.includes(API_KEY), bad);
      assert.match(bad, /header 1 has a name that is not an HTTP token/);
      assert.equal(s.got.length, 0);
    });

    it('masks the password of an endpoint that is not a URL, and names a header that is not percent-encoded', () => {
      assert.throws(() => otlpTracesUrl('http://alice:s3cret-pw@[::1'), (e: Error) => e instanceof OtlpPostError && !e.message.includes('s3cret') && e.message.includes('http://***@'));
      assert.throws(() => parseOtlpHeaders(`x-api-key=${API_KEY}%zz`), (e: Error) => e instanceof OtlpPostError && e.message === 'OTEL_EXPORTER_OTLP_HEADERS: the value of x-api-key is not valid percent-encoding');
    });
  });

  it('says how many requests were accepted before the one that failed', async () => {
    const s = await serve((_req, res, n) => (n < 2 ? res.writeHead(200).end('{}') : res.writeHead(413).end('too big')));
    const msg = await failure(postOtlpJson(s.origin, [BODY, BODY, BODY, BODY], fast()));
    assert.equal(s.got.length, 3);
    assert.match(msg, /answered 413 Payload Too Large: too big \(request 3 of 4; the 2 before it were accepted\)$/);
  });

  it('sends a user agent agent-trace/<version>, unless a header gives one', async () => {
    const s = await serve((_req, res) => res.writeHead(200).end('{}'));
    await postOtlpJson(s.origin, [BODY], fast({ version: '9.8.7' }));
    await postOtlpJson(s.origin, [BODY], fast({ version: '9.8.7', headers: { 'User-Agent': 'mine/1' } }));
    assert.deepEqual(s.got.map((g) => g.headers['user-agent']), ['agent-trace/9.8.7', 'mine/1']);
  });

  describe('gzip', () => {
    it('sends every body gzip-compressed with Content-Encoding: gzip', async () => {
      const s = await serve((_req, res) => res.writeHead(200).end('{}'));
      const r = await postOtlpJson(s.origin, [BODY, BODY], fast());
      assert.deepEqual(s.got.map((g) => [g.headers['content-encoding'], g.body]), [['gzip', BODY], ['gzip', BODY]]);
      assert.equal(r.gzip, true);
    });

    it('sends the body again uncompressed to a receiver that answers 415, and the later bodies uncompressed too', async () => {
      const s = await serve((req, res) => (req.headers['content-encoding'] === 'gzip' ? res.writeHead(415).end('unsupported') : res.writeHead(200).end('{}')));
      const r = await postOtlpJson(s.origin, [BODY, BODY], fast());
      assert.deepEqual(s.got.map((g) => [g.headers['content-encoding'] ?? 'none', g.body]), [['gzip', BODY], ['none', BODY], ['none', BODY]]);
      assert.deepEqual([r.requests, r.gzip], [2, false]);
    });

    it('falls back on a 400 that names the encoding, but not on any other 400; compression none never gzips', async () => {
      const s = await serve((req, res) => (req.headers['content-encoding'] === 'gzip' ? res.writeHead(400).end('unsupported Content-Encoding "gzip"') : res.writeHead(200).end('{}')));
      assert.equal((await postOtlpJson(s.origin, [BODY], fast())).gzip, false);
      const t = await serve((_req, res) => res.writeHead(400).end('bad span'));
      assert.match(await failure(postOtlpJson(t.origin, [BODY], fast())), /answered 400 Bad Request: bad span$/);
      assert.equal(t.got.length, 1);
      const u = await serve((_req, res) => res.writeHead(200).end('{}'));
      await postOtlpJson(u.origin, [BODY], fast({ compression: 'none' }));
      assert.equal(u.got[0].headers['content-encoding'], undefined);
    });
  });
});
