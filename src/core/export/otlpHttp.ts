/** A failed OTLP/HTTP export: the message names the endpoint and what went wrong, in one line. */
export class OtlpPostError extends Error {}

/** What an OTLP/HTTP export delivered. */
export interface OtlpPostResult {
  url: string;
  requests: number;
  /** Spans the receiver said it rejected (`partialSuccess.rejectedSpans`), with its message. */
  rejectedSpans: number;
  messages: string[];
}

/**
 * The traces URL of an endpoint as OpenTelemetry's exporters read `OTEL_EXPORTER_OTLP_ENDPOINT`: a URL that
 * already ends in `/v1/traces` is used as given, any other gets `/v1/traces` appended to its path.
 */
export function otlpTracesUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new OtlpPostError(`${endpoint} is not a URL (expected e.g. http://localhost:4318)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OtlpPostError(`${endpoint}: OTLP/HTTP needs an http or https URL`);
  if (!/\/v1\/traces\/?$/.test(url.pathname)) url.pathname = url.pathname.replace(/\/+$/, '') + '/v1/traces';
  return url.toString();
}

/** Headers from the `OTEL_EXPORTER_OTLP_HEADERS` syntax: `key=value,key2=value2`, values URL-encoded. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out[decodeURIComponent(part.slice(0, eq).trim())] = decodeURIComponent(part.slice(eq + 1).trim());
  }
  return out;
}

function causeOf(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'no answer in time';
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

async function postOne(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ rejected: number; message: string | null }> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new OtlpPostError(`cannot send to ${url}: ${causeOf(err)}`);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    const detail = text.trim().replace(/\s+/g, ' ').slice(0, 200);
    throw new OtlpPostError(`${url} answered ${res.status} ${res.statusText}${detail ? `: ${detail}` : ''}`);
  }
  // A 200 may still carry `partialSuccess` (spans the receiver dropped); report it rather than claim success.
  try {
    const reply = JSON.parse(text) as { partialSuccess?: { rejectedSpans?: number | string; errorMessage?: string } };
    const p = reply.partialSuccess;
    return { rejected: Number(p?.rejectedSpans ?? 0) || 0, message: p?.errorMessage || null };
  } catch {
    return { rejected: 0, message: null };
  }
}

/**
 * POSTs OTLP/JSON export requests to an OTLP/HTTP receiver (`/v1/traces`, `application/json`), one after the
 * other, and stops at the first failure with an {@link OtlpPostError} naming the URL and the cause.
 */
export async function postOtlpJson(endpoint: string, bodies: string[], headers: Record<string, string> = {}, timeoutMs = 30_000): Promise<OtlpPostResult> {
  const url = otlpTracesUrl(endpoint);
  const result: OtlpPostResult = { url, requests: 0, rejectedSpans: 0, messages: [] };
  for (const body of bodies) {
    const r = await postOne(url, body, headers, timeoutMs);
    result.requests++;
    result.rejectedSpans += r.rejected;
    if (r.message) result.messages.push(r.message);
  }
  return result;
}
