// "Send to OTLP Endpoint…" (issue 41 item 4): the command sends through the core's sender, so it retries, keeps
// to the endpoint's origin and never shows a password or a header value in its progress or its messages.
import { strict as assert } from 'node:assert';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { fake, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { loadTrace } from '../../src/core/loadTrace';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { registerShareCommands } = require('../../src/vscode/commands/shareCommands') as typeof import('../../src/vscode/commands/shareCommands');
const { COMMANDS } = require('../../src/vscode/commandIds') as typeof import('../../src/vscode/commandIds');

const TRACE = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl');
const KEY = 'k3y-0123456789abcdef';

/** A loopback receiver answering each request (body read) with `answer(headers, n)`: status and extra headers. */
async function receiver(answer: (h: IncomingMessage['headers'], n: number) => [number, Record<string, string>?]): Promise<{ server: Server; origin: string; got: IncomingMessage['headers'][] }> {
  const got: IncomingMessage['headers'][] = [];
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      got.push(req.headers);
      const [status, headers] = answer(req.headers, got.length - 1);
      res.writeHead(status, headers).end(status === 200 ? '{}' : JSON.stringify(req.headers));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

describe('Send to OTLP Endpoint…', () => {
  const context = { subscriptions: [] as { dispose(): void }[], extension: { packageJSON: { version: '0.1.0' } } };
  const models = { get: (u: Uri) => loadTrace(u.fsPath) };
  const viewers = { activeUri: () => undefined, selectedLine: () => undefined };
  const servers: Server[] = [];
  const send = async (endpoint: string): Promise<string> => {
    fake.messages.length = 0;
    fake.progress.length = 0;
    fake.progressReports.length = 0;
    fake.input = (o) => {
      assert.equal(o.validateInput?.(endpoint), undefined);
      return endpoint;
    };
    await fake.commands.get(COMMANDS.sendToOtlp)!(Uri.file(TRACE));
    assert.equal(fake.messages.length, 1, fake.messages.join('\n'));
    return fake.messages[0];
  };
  before(() => registerShareCommands(context as never, viewers as never, models as never));
  after(() => {
    for (const d of context.subscriptions) d.dispose();
    fake.input = () => undefined;
    delete fake.config.otlpHeaders;
  });
  afterEach(() => servers.splice(0).forEach((s) => (s.closeAllConnections(), s.close())));

  it('retries a 503, tells the progress notification, and names the endpoint with its password masked', async () => {
    const r = await receiver((_h, n) => (n === 0 ? [503, { 'retry-after': '0' }] : [200]));
    servers.push(r.server);
    const events = (await loadTrace(TRACE)).events.size;
    const msg = await send(r.origin.replace('//', '//alice:s3cret-pw@'));
    const shown = `${r.origin.replace('//', '//***@')}/v1/traces`;
    assert.equal(msg, `Agent Trace: sent ${events} spans to ${shown}.`);
    assert.deepEqual(fake.progress, [`Sending trace.jsonl to ${shown}…`]);
    assert.deepEqual(fake.progressReports, [{ message: `${shown} answered 503 Service Unavailable; trying again in 0 s (retry 1 of 3)` }]);
    assert.equal(r.got.length, 2);
    assert.equal(r.got[1]['user-agent'], 'agent-trace/0.1.0');
    assert.equal(r.got[1].authorization, `Basic ${Buffer.from('alice:s3cret-pw').toString('base64')}`);
  });

  it('does not follow a redirect to another origin with the headers of agentTrace.otlpHeaders', async () => {
    const other = await receiver(() => [200]);
    const first = await receiver(() => [308, { location: `${other.origin}/v1/traces` }]);
    servers.push(other.server, first.server);
    fake.config.otlpHeaders = { 'x-api-key': KEY };
    try {
      const msg = await send(first.origin);
      assert.equal(other.got.length, 0);
      assert.equal(first.got[0]['x-api-key'], KEY);
      assert.match(msg, /^Agent Trace: http:\/\/127\.0\.0\.1:\d+\/v1\/traces answered 308 Permanent Redirect, pointing to http:\/\/127\.0\.0\.1:\d+\/v1\/traces on another origin: not followed/);
      assert.ok(!msg.includes(KEY), msg);
    } finally {
      delete fake.config.otlpHeaders;
    }
  });

  it('refuses a header with a line break, naming it and not its value', async () => {
    const r = await receiver(() => [200]);
    servers.push(r.server);
    fake.config.otlpHeaders = { 'x-api-key': `${KEY}\r\nx-admin: yes` };
    try {
      assert.equal(await send(r.origin), 'Agent Trace: the value of header x-api-key holds a line break (CR or LF); nothing was sent');
      assert.equal(r.got.length, 0);
    } finally {
      delete fake.config.otlpHeaders;
    }
  });

  it('sends the conversation only with agentTrace.otlpIncludeContent on (off by default)', async () => {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        const raw = Buffer.concat(chunks);
        bodies.push((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'));
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await send(origin);
    assert.ok(bodies.length > 0 && bodies.every((b) => !b.includes('"gen_ai.input.messages"') && !b.includes('"gen_ai.tool.call.arguments"')), 'no content by default');
    bodies.length = 0;
    fake.config.otlpIncludeContent = true;
    try {
      await send(origin);
    } finally {
      delete fake.config.otlpIncludeContent;
    }
    const all = bodies.join('\n');
    assert.ok(all.includes('"gen_ai.input.messages"'), 'model calls carry their messages');
    assert.ok(all.includes('"gen_ai.tool.call.arguments"'), 'tool calls carry their arguments');
  });
});
