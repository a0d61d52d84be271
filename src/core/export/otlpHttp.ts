import { Buffer } from 'buffer';

/**
 * A failed OTLP/HTTP export: the message names the endpoint and what went wrong, in one line, with every header
 * value and the URL's user name and password masked.
 */
export class OtlpPostError extends Error {}

/** What an OTLP/HTTP export delivered. */
export interface OtlpPostResult {
  /** Where the last request was accepted, credentials masked: the traces URL, or where a same-origin 307/308 led. */
  url: string;
  /** The traces URL of the endpoint as given, credentials masked. */
  endpointUrl: string;
  requests: number;
  /** Requests sent again after a 429/502/503/504 or a reset connection. */
  retries: number;
  /** Whether the receiver took the bodies gzip-compressed (false: sent uncompressed). */
  gzip: boolean;
  /** Spans the receiver said it rejected (`partialSuccess.rejectedSpans`), with its message. */
  rejectedSpans: number;
  messages: string[];
}

/** How {@link postOtlpJson} sends; every field has a default, the timings are there so tests run fast. */
export interface OtlpPostOptions {
  headers?: Record<string, string>;
  /** Per request, answer included. Default 30 s. */
  timeoutMs?: number;
  /** `agent-trace/<version>` when given; a `user-agent` header wins over it. */
  version?: string;
  /** Retries of one request after 429, 502, 503 or 504. Default 3. */
  maxRetries?: number;
  /** Retries of one request after the connection was reset. Default 2. */
  maxResets?: number;
  /** Same-origin 307/308 redirects followed per request. Default 3. */
  maxRedirects?: number;
  /** First wait of the exponential backoff when the receiver gives no Retry-After. Default 1 s. */
  backoffMs?: number;
  /** The longest wait; a Retry-After asking for more fails at once. Default 30 s. */
  maxWaitMs?: number;
  /** Bytes of an answer read (for its error message or partialSuccess); the rest is discarded. Default 64 KiB. */
  maxReplyBytes?: number;
  /** Waits `ms`; tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock a Retry-After date is measured against. */
  now?: () => number;
  /**
   * `gzip` (default): bodies are sent gzip-compressed (`Content-Encoding: gzip`, which OTLP/HTTP receivers accept);
   * a receiver that refuses it (415, or a 400 naming the encoding) gets the same body uncompressed, and so do the
   * requests after it. `none`: never compressed.
   */
  compression?: 'gzip' | 'none';
  /** Told (credentials masked) before each retry, for a progress line. */
  onRetry?: (message: string) => void;
}

const DEFAULTS = { timeoutMs: 30_000, maxRetries: 3, maxResets: 2, maxRedirects: 3, backoffMs: 1000, maxWaitMs: 30_000, maxReplyBytes: 64 * 1024 };

/** Answers that OTLP/HTTP says to retry (the specification's retryable codes), honouring Retry-After. */
const RETRYABLE = new Set([429, 502, 503, 504]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Connection failures after which the same request is sent again: the receiver closed or reset it. */
const RESETS = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
/** An HTTP token: what a header name may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** `scheme://user:password@` in any text. */
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** One line of text, with control characters (a server's or a user's) shown as spaces. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
}

/** A URL for a message: user name and password shown as `***`. */
function shown(url: URL): string {
  if (!url.username && !url.password) return url.toString();
  const copy = new URL(url.toString());
  copy.username = '***';
  copy.password = '';
  return copy.toString();
}

/** Text a user typed as a URL, for a message: anything before an `@` after the scheme masked, one line, bounded. */
function shownText(text: string): string {
  const line = oneLine(text).replace(USERINFO, '$1***@');
  return line.length > 200 ? line.slice(0, 200) + '…' : line;
}

function tracesUrl(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new OtlpPostError(`${shownText(endpoint)} is not a URL (expected e.g. http://localhost:4318)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OtlpPostError(`${shown(url)}: OTLP/HTTP needs an http or https URL`);
  if (!/\/v1\/traces\/?$/.test(url.pathname)) url.pathname = url.pathname.replace(/\/+$/, '') + '/v1/traces';
  return url;
}

/**
 * The traces URL of an endpoint as OpenTelemetry's exporters read `OTEL_EXPORTER_OTLP_ENDPOINT`: a URL that
 * already ends in `/v1/traces` is used as given, any other gets `/v1/traces` appended to its path. The error of
 * an endpoint that is not one masks a user name and password in it.
 */
export function otlpTracesUrl(endpoint: string): string {
  return tracesUrl(endpoint).toString();
}

/** The traces URL of an endpoint for a message (progress, "sent to"): user name and password masked. */
export function shownOtlpUrl(endpoint: string): string {
  try {
    return shown(tracesUrl(endpoint));
  } catch {
    return shownText(endpoint);
  }
}

/**
 * Headers from the `OTEL_EXPORTER_OTLP_HEADERS` syntax: `key=value,key2=value2`, values URL-encoded. A part that
 * is not valid percent-encoding is an {@link OtlpPostError} naming the header (never its value).
 */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const part of (text ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    n++;
    let key: string;
    try {
      key = decodeURIComponent(part.slice(0, eq).trim());
    } catch {
      throw new OtlpPostError(`OTEL_EXPORTER_OTLP_HEADERS: the name of header ${n} is not valid percent-encoding`);
    }
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      throw new OtlpPostError(`OTEL_EXPORTER_OTLP_HEADERS: the value of ${TOKEN.test(key) ? key : `header ${n}`} is not valid percent-encoding`);
    }
  }
  return out;
}

/** Every header name a token and no value with a control character; the error names the header, never its value. */
function checkHeaders(headers: Record<string, string>): void {
  let n = 0;
  for (const [name, value] of Object.entries(headers)) {
    n++;
    if (!TOKEN.test(name)) throw new OtlpPostError(`header ${n} has a name that is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~); nothing was sent`);
    if (/[\r\n]/.test(value)) throw new OtlpPostError(`the value of header ${name} holds a line break (CR or LF); nothing was sent`);
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(String(value))) throw new OtlpPostError(`the value of header ${name} holds a control character; nothing was sent`);
  }
}

/** Replaces every secret (header values, their tokens, the URL's user name and password) in a message. */
function masker(secrets: string[]): (text: string) => string {
  const list = [...new Set(secrets.filter((s) => s.length >= 3))].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text.replace(USERINFO, '$1***@');
    for (const s of list) out = out.split(s).join('***');
    return out;
  };
}

function causeOf(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'no answer in time';
  return oneLine(e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
}

/** At most `cap` bytes of an answer, as text; the rest is not read (the stream is cancelled). */
async function readCapped(res: Response, cap: number): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: '', truncated: false };
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.length > cap - size) {
        parts.push(value.subarray(0, cap - size));
        size = cap;
        truncated = true;
        break;
      }
      parts.push(value);
      size += value.length;
    }
  } catch {
    // The answer broke off (or timed out): what arrived is enough for a message.
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return { text: Buffer.concat(parts).toString('utf8'), truncated };
}

/** An answer whose body is not wanted: closed without reading it. */
async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

/** The wait a Retry-After asks for (delay-seconds or an HTTP date), or null when it has none or one not understood. */
function retryAfterMs(value: string | null, now: number): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** A body gzip-compressed with the platform's `CompressionStream` (Node and browsers alike). */
async function gzipped(text: string): Promise<ArrayBuffer> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

/** An answer that says the receiver does not take a compressed body. */
function refusesEncoding(status: number, text: string): boolean {
  return status === 415 || (status === 400 && /encoding|gzip|compress/i.test(text));
}

interface Sender {
  /** False once a receiver refused a gzip body: the rest go uncompressed. */
  gzip: boolean;
  endpoint: URL;
  headers: Record<string, string>;
  mask: (text: string) => string;
  o: typeof DEFAULTS & Pick<OtlpPostOptions, 'onRetry'> & { sleep: (ms: number) => Promise<void>; now: () => number };
}

/** The request's URL: credentials travel in the authorization header, never in the URL. */
function bare(url: URL): string {
  const copy = new URL(url.toString());
  copy.username = '';
  copy.password = '';
  return copy.toString();
}

async function postOne(s: Sender, text: string): Promise<{ rejected: number; message: string | null; url: URL; retries: number }> {
  const { o, mask } = s;
  const fail = (text: string): OtlpPostError => new OtlpPostError(mask(text));
  let url = s.endpoint;
  let redirects = 0;
  let retries = 0;
  let resets = 0;
  const wait = async (ms: number, why: string, n: number, of: number): Promise<void> => {
    o.onRetry?.(mask(`${why}; trying again in ${seconds(ms)} (retry ${n} of ${of})`));
    await o.sleep(ms);
  };
  let body: string | ArrayBuffer = s.gzip ? await gzipped(text) : text;
  for (;;) {
    let res: Response;
    const headers = s.gzip ? { ...s.headers, 'content-encoding': 'gzip' } : s.headers;
    try {
      res = await fetch(bare(url), { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(o.timeoutMs) });
    } catch (err) {
      const cause = causeOf(err);
      if (RESETS.has(cause) && resets < o.maxResets) {
        resets++;
        await wait(Math.min(o.backoffMs * 2 ** (resets - 1), o.maxWaitMs), `${shown(url)} closed the connection (${cause})`, resets, o.maxResets);
        continue;
      }
      throw fail(`cannot send to ${shown(url)}: ${cause}`);
    }
    const status = `${res.status}${res.statusText ? ' ' + oneLine(res.statusText) : ''}`;
    if (REDIRECTS.has(res.status)) {
      const location = res.headers.get('location');
      await discard(res);
      let next: URL | null = null;
      try {
        next = location ? new URL(location, url) : null;
      } catch {
        next = null;
      }
      const where = next ? shown(next) : location ? shownText(location) : 'nowhere (no Location)';
      if (res.status !== 307 && res.status !== 308) {
        throw fail(`${shown(url)} answered ${status}, pointing to ${where}: not followed, as a ${res.status} would turn the POST into a GET without the spans, so they were not delivered; give the URL it points to as the endpoint`);
      }
      if (!next) throw fail(`${shown(url)} answered ${status}, pointing to ${where}: the spans were not delivered`);
      if (next.origin !== s.endpoint.origin) {
        throw fail(`${shown(url)} answered ${status}, pointing to ${where} on another origin: not followed, so neither the spans nor the headers went there; give that URL as the endpoint if you trust it`);
      }
      if (++redirects > o.maxRedirects) throw fail(`${shown(s.endpoint)} redirected more than ${o.maxRedirects} times (last to ${where}); the spans were not delivered`);
      url = next;
      continue;
    }
    if (RETRYABLE.has(res.status)) {
      const asked = retryAfterMs(res.headers.get('retry-after'), o.now());
      if (retries >= o.maxRetries || (asked !== null && asked > o.maxWaitMs)) {
        const { text } = await readCapped(res, o.maxReplyBytes);
        const detail = oneLine(text).slice(0, 200);
        const why = retries >= o.maxRetries ? `gave up after ${retries + 1} tries` : `it asks to wait ${seconds(asked!)}, longer than the ${seconds(o.maxWaitMs)} this waits; try again later`;
        throw fail(`${shown(url)} answered ${status}${detail ? `: ${detail}` : ''} (${why})`);
      }
      await discard(res);
      retries++;
      await wait(asked ?? Math.min(o.backoffMs * 2 ** (retries - 1), o.maxWaitMs), `${shown(url)} answered ${status}`, retries, o.maxRetries);
      continue;
    }
    const { text: answer, truncated } = await readCapped(res, o.maxReplyBytes);
    if (!res.ok && s.gzip && refusesEncoding(res.status, answer)) {
      // The receiver does not take gzip: the same body again, uncompressed, and every later one too.
      s.gzip = false;
      body = text;
      continue;
    }
    if (!res.ok) {
      const detail = oneLine(answer).slice(0, 200);
      throw fail(`${shown(url)} answered ${status}${detail ? `: ${detail}` : ''}`);
    }
    // A 200 may still carry `partialSuccess` (spans the receiver dropped); report it rather than claim success.
    try {
      if (truncated) throw new Error('answer cut at the cap');
      const reply = JSON.parse(answer) as { partialSuccess?: { rejectedSpans?: number | string; errorMessage?: string } };
      const p = reply.partialSuccess;
      const message = p?.errorMessage ? mask(oneLine(String(p.errorMessage)).slice(0, 500)) : null;
      return { rejected: Number(p?.rejectedSpans ?? 0) || 0, message, url, retries: retries + resets };
    } catch {
      return { rejected: 0, message: null, url, retries: retries + resets };
    }
  }
}

/** The headers sent: the user's (checked), a user agent and Basic credentials from the URL unless the user gave them. */
function requestHeaders(endpoint: URL, given: Record<string, string>, version: string | undefined): { headers: Record<string, string>; secrets: string[] } {
  checkHeaders(given);
  const headers: Record<string, string> = {};
  const has = (name: string): boolean => Object.keys(given).some((k) => k.toLowerCase() === name);
  if (version !== undefined && !has('user-agent')) headers['user-agent'] = `agent-trace/${version}`;
  for (const [k, v] of Object.entries(given)) if (k.toLowerCase() !== 'content-type') headers[k] = v;
  headers['content-type'] = 'application/json';
  const secrets = Object.values(given).flatMap((v) => [v, ...v.split(/\s+/)]);
  if (endpoint.username || endpoint.password) {
    let user = endpoint.username;
    let password = endpoint.password;
    try {
      user = decodeURIComponent(user);
      password = decodeURIComponent(password);
    } catch {
      // Kept as written.
    }
    secrets.push(endpoint.username, endpoint.password, user, password);
    if (!has('authorization')) {
      const token = Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
      headers.authorization = `Basic ${token}`;
      secrets.push(token);
    }
  }
  return { headers, secrets };
}

/**
 * POSTs OTLP/JSON export requests to an OTLP/HTTP receiver (`/v1/traces`, `application/json`, gzip-compressed
 * unless the receiver refuses it), one after the other, and stops at the first failure with an {@link OtlpPostError} naming the URL and the cause. A 429, 502,
 * 503 or 504 is tried again with exponential backoff or after the answer's Retry-After, a reset connection
 * once or twice; a 307/308 to the same origin is followed with the body, any other redirect is an error; an
 * answer is read up to a cap. No message holds a header value or the URL's user name and password.
 */
export async function postOtlpJson(endpoint: string, bodies: Iterable<string> | AsyncIterable<string>, options: OtlpPostOptions = {}): Promise<OtlpPostResult> {
  const url = tracesUrl(endpoint);
  const { headers, secrets } = requestHeaders(url, options.headers ?? {}, options.version);
  const o = {
    ...DEFAULTS,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms))),
    now: options.now ?? (() => Date.now()),
  } as Sender['o'];
  const sender: Sender = { gzip: options.compression !== 'none', endpoint: url, headers, mask: masker(secrets), o };
  const result: OtlpPostResult = { url: shown(url), endpointUrl: shown(url), requests: 0, retries: 0, gzip: sender.gzip, rejectedSpans: 0, messages: [] };
  for await (const body of bodies) {
    let r: Awaited<ReturnType<typeof postOne>>;
    try {
      r = await postOne(sender, body);
    } catch (err) {
      // Spans of the earlier requests did arrive: say so rather than let the error read as "nothing was sent".
      const of = Array.isArray(bodies) ? ` of ${bodies.length}` : '';
      if (err instanceof OtlpPostError && result.requests > 0) throw new OtlpPostError(`${err.message} (request ${result.requests + 1}${of}; the ${result.requests} before it were accepted)`);
      throw err;
    }
    result.requests++;
    result.gzip = sender.gzip;
    result.url = shown(r.url);
    result.retries += r.retries;
    result.rejectedSpans += r.rejected;
    if (r.message) result.messages.push(r.message);
  }
  return result;
}
