import { Buffer } from 'buffer';
import { BlobTally, CheckContext, LineInput, StreamCheck } from '../rules/types';
import { isObj } from '../json/jsonObject';
import { BLOB_CATALOG, BlobRuleId } from '../catalog/blobCatalog';
import { Finding, HashRef } from '../model';
import type { BlobLayout } from '../blobs/blobLayout';
import type { BlobStoreOptions } from '../blobs/blobOptions';
import { BlobRefRole } from '../blobs/blobReference';
import { LineRef } from '../blobs/blobReferenceScan';
import { BlobResult, BlobStore } from '../blobs/blobStore';
import { appendAll } from '../arrays';

/** Rule ids of blob verification (declared in checks/blobRules.ts). */
export const BLOB_RULE = {
  mismatch: 'blob/mismatch',
  missing: 'blob/missing',
  unreadable: 'blob/unreadable',
  rejected: 'blob/rejected-reference',
  unverifiable: 'blob/unverifiable',
  noStore: 'blob/no-store',
  orphan: 'blob/orphan',
} as const;

/** One place a blob is referenced: an event's line and the reference. */
interface Site {
  line: number;
  event: number | null;
  ref: HashRef;
  role: BlobRefRole;
}

const CONCURRENCY = 8;

/** Distinct referenced blobs by outcome (the viewer's "blobs: N verified, N missing, N mismatched"). */
function tallyBlobs(sites: Site[], results: Map<string, BlobResult>, keyOf: (s: Site) => string): BlobTally | undefined {
  const t: BlobTally = { verified: 0, missing: 0, mismatched: 0, other: 0 };
  const counted = new Set<string>();
  for (const s of sites) {
    const k = keyOf(s);
    if (s.role !== 'blob' || counted.has(k)) continue;
    counted.add(k);
    const status = results.get(k)?.status;
    if (status === 'verified') t.verified++;
    else if (status === 'missing') t.missing++;
    else if (status === 'mismatch') t.mismatched++;
    else t.other++;
  }
  return counted.size > 0 ? t : undefined;
}

/** Runs `fn` over items with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Whether the blob verifier reads a line of this text (so a range worker must hand the text over). A layout that
 * reads the capture mode from the lines needs each one parsed; others skip lines whose text cannot hold a
 * reference, without parsing them.
 */
export function blobVerifierReadsLine(layout: BlobLayout, line: string | Buffer): boolean {
  if (layout.verifiedByFormatRules) return false;
  if (layout.contentCaptured !== undefined) return true;
  if (typeof line === 'string') return layout.lineMayHoldRef(line);
  // A line's bytes (valid UTF-8): tested as they are where the layout can, else decoded.
  return layout.lineBytesMayHoldRef ? layout.lineBytesMayHoldRef(line) : layout.lineMayHoldRef(line.toString('utf8'));
}

/**
 * Verifies every blob the trace references: each distinct blob is rehashed once, and each problem is
 * reported at the line of every event that references it. References come from the adapter's hashRefs and,
 * independently, from the lines themselves (the layout's blob fields, `blob://` values), so malformed
 * references and traces whose adapter lists no hashRefs are covered too. What counts as a reference, where
 * blobs live and how a missing one is judged is the format's {@link BlobLayout}.
 */
export class BlobVerifier implements StreamCheck {
  private readonly lineRefs: LineRef[] = [];
  /** A line showed that the writer captured content (the layout's `contentCaptured`), so blobs must exist. */
  private contentCaptured = false;
  private readonly layout: BlobLayout;

  private counts: BlobTally | undefined;

  constructor(private readonly ctx: CheckContext, private readonly options: BlobStoreOptions = {}) {
    this.layout = ctx.blobLayout;
  }

  /** Distinct blobs by outcome, after `finish` (undefined when the trace references none). */
  tally(): BlobTally | undefined {
    return this.counts;
  }

  add(input: LineInput): void {
    const layout = this.layout;
    // A digested line is one whose text a range worker found this verifier would skip (blobVerifierReadsLine).
    if (input.digest || !blobVerifierReadsLine(layout, input.text)) return;
    const value = input.value;
    if (value === undefined || !isObj(value)) return;
    this.lineRefs.push(...layout.scanLine(input.line, value, input.text));
    if (layout.contentCaptured?.(value)) this.contentCaptured = true;
  }

  async finish(): Promise<Finding[]> {
    if (this.layout.verifiedByFormatRules) return [];
    const sites = this.collectSites();
    if (sites.length === 0 && this.lineRefs.length === 0 && !this.layout.checksWholeStore) return [];
    const store = await BlobStore.open(this.ctx.path, this.layout, this.options);
    const out: Finding[] = [];
    // Malformed values of a format's blob fields are its own rules' findings (murmur/sha-format); here only
    // unusable `blob://` values.
    for (const r of this.lineRefs) if (r.refused && r.source === 'blob-uri') out.push(this.finding(r.unverifiable ? BLOB_RULE.unverifiable : BLOB_RULE.rejected, r.line, this.eventAt(r.line), `Reference ${r.field}: ${r.refused}.`));
    const keyOf = (s: Site) => `${s.ref.algorithm}:${s.ref.digest}`;
    const results = await this.resolveEach(store, sites, keyOf);
    this.counts = tallyBlobs(sites, results, keyOf);
    const missing = this.missingExpectation(store);
    const notStored: Site[] = [];
    for (const group of this.groupByEventAndBlob(sites, keyOf)) {
      const res = results.get(keyOf(group[0]))!;
      const f = this.findingFor(res, group, missing);
      if (f) out.push(f);
      else if (res.status === 'missing' && group.some((g) => g.role === 'blob') && missing === null) notStored.push(group[0]);
    }
    if (notStored.length > 0) out.push(this.noStoreFinding(notStored));
    if (this.layout.checksWholeStore) appendAll(out, await this.orphans(store, sites));
    return out;
  }

  /**
   * Rehashes each distinct blob once. A `blob://` ref says how its blob is hashed better than a bare digest of
   * the same blob (agentledger spans carry both payload_hash and payload_ref), so it represents the blob.
   */
  private async resolveEach(store: BlobStore, sites: Site[], keyOf: (s: Site) => string): Promise<Map<string, BlobResult>> {
    const unique = new Map<string, Site>();
    for (const s of sites) {
      const had = unique.get(keyOf(s));
      if (!had || (had.role !== 'blob' && s.role === 'blob')) unique.set(keyOf(s), s);
    }
    const results = new Map<string, BlobResult>();
    await pool([...unique.entries()], CONCURRENCY, async ([k, s]) => results.set(k, await store.resolve(s.ref)));
    return results;
  }

  /** Sites from the model's hashRefs plus those read from the lines, without repeats, blob refs only. */
  private collectSites(): Site[] {
    const t = this.ctx.model.events;
    const layout = this.layout;
    const seen = new Set<string>();
    const out: Site[] = [];
    const push = (line: number, event: number | null, ref: HashRef) => {
      const role = layout.refRole(ref);
      // Adapters may spell array paths `a.0` or `a[0]`; one spelling per place.
      const key = `${line}\0${ref.field.replace(/\.(\d+)(?=\.|\[|$)/g, '[$1]')}\0${ref.digest}`;
      if (role === 'not-a-blob' || seen.has(key)) return;
      seen.add(key);
      out.push({ line, event, ref, role });
    };
    for (const i of t.eventsWithHashRefs()) for (const ref of t.hashRefsOf(i)) push(t.lineOf(i), i, ref);
    for (const r of this.lineRefs) if (r.ref) push(r.line, this.eventAt(r.line), r.ref);
    return out.sort((a, b) => a.line - b.line);
  }

  /** Sites grouped per (line, blob): one finding per event even when it names a blob twice. */
  private groupByEventAndBlob(sites: Site[], keyOf: (s: Site) => string): Site[][] {
    const groups = new Map<string, Site[]>();
    for (const s of sites) {
      const k = `${s.line}\0${keyOf(s)}`;
      const g = groups.get(k);
      if (g) {
        if (!g.some((x) => x.ref.field === s.ref.field)) g.push(s);
      } else groups.set(k, [s]);
    }
    return [...groups.values()];
  }

  /**
   * How a missing blob is judged, or null when blobs are not expected (report one `blob/no-store` instead).
   * `expected` (blob/missing at its catalog severity, an error) when the layout's own store is beside the
   * trace and holds every blob, or a line showed content was captured (murmur's `content` mode);
   * `maybe-not-exported` (its documented warning) when some store exists but may not hold this trace's blobs;
   * without any store blobs are not expected (murmur's `meta` / `none` modes).
   */
  private missingExpectation(store: BlobStore): 'expected' | 'maybe-not-exported' | null {
    if ((this.layout.storeBesideTraceIsComplete && store.hasRoot('beside-trace')) || this.contentCaptured) return 'expected';
    return store.hasRoot() ? 'maybe-not-exported' : null;
  }

  private findingFor(res: BlobResult, group: Site[], missing: 'expected' | 'maybe-not-exported' | null): Finding | null {
    const s = group[0];
    const fields = group.map((g) => g.ref.field).join(', ');
    // The result was computed for the first reference to the blob; name this event's own fields.
    const msg = res.message.replace(`(${res.ref.field})`, `(${fields})`);
    switch (res.status) {
      case 'verified':
        return null;
      case 'mismatch':
        return this.finding(BLOB_RULE.mismatch, s.line, s.event, msg);
      case 'missing':
        if (!group.some((g) => g.role === 'blob') || missing === null) return null;
        return this.finding(BLOB_RULE.missing, s.line, s.event, msg, missing === 'maybe-not-exported');
      case 'unreadable':
        return this.finding(BLOB_RULE.unreadable, s.line, s.event, msg);
      case 'rejected':
        return this.finding(BLOB_RULE.rejected, s.line, s.event, msg);
      case 'unverifiable':
      case 'too-large':
        return this.finding(BLOB_RULE.unverifiable, s.line, s.event, msg);
    }
  }

  private noStoreFinding(sites: Site[]): Finding {
    const digests = new Set(sites.map((s) => s.ref.digest));
    return this.finding(BLOB_RULE.noStore, sites[0].line, sites[0].event, `${digests.size} referenced blob(s) cannot be shown: ${this.layout.noStoreReason}.`);
  }

  /** Files of the store beside the trace that no line references; each is rehashed too (murmur doc: every file in blobs/). */
  private async orphans(store: BlobStore, sites: Site[]): Promise<Finding[]> {
    const referenced = new Set(sites.map((s) => s.ref.digest));
    const stored = (await store.storedDigests()).filter((d) => !referenced.has(d.digest));
    const line = this.ctx.model.events.size > 0 ? this.ctx.model.events.lineOf(0) : 1;
    const event = this.ctx.model.events.size > 0 ? 0 : null;
    const out: Finding[] = [];
    await pool(stored, CONCURRENCY, async (d) => {
      const res = await store.resolve({ field: 'blobs/', digest: d.digest, algorithm: d.algorithm, raw: d.digest });
      const shown = store.display(d.path);
      if (res.status === 'mismatch') out.push(this.finding(BLOB_RULE.mismatch, line, event, `Unreferenced blob does not match its name: expected SHA-256 ${d.digest}, actual ${res.actual ?? 'not computable'}; file ${shown}.`));
      out.push(this.finding(BLOB_RULE.orphan, line, event, `Blob referenced by no event (an event write may have failed after the blob was stored): ${shown}.`));
    });
    return out.sort((a, b) => a.message.localeCompare(b.message));
  }

  private eventAt(line: number): number | null {
    if (!this.lineIndex) {
      this.lineIndex = new Map();
      const t = this.ctx.model.events;
      for (let i = 0; i < t.size; i++) if (!this.lineIndex.has(t.lineOf(i))) this.lineIndex.set(t.lineOf(i), i);
    }
    return this.lineIndex.get(line) ?? null;
  }
  private lineIndex: Map<number, number> | null = null;

  /** A finding at the rule's catalog severity (`overridden`: blob/missing's documented warning). */
  private finding(rule: BlobRuleId, line: number, event: number | null, message: string, overridden = false): Finding {
    const t = this.ctx.model.events;
    const severity = overridden && rule === BLOB_RULE.missing ? BLOB_CATALOG.overrideOf(rule) : BLOB_CATALOG.severityOf(rule);
    const f: Finding = { rule, severity, line, message };
    if (event !== null) {
      const seq = t.seqOf(event);
      const id = t.id(event);
      if (seq !== null) f.seq = seq;
      if (id !== null) f.eventId = id;
    }
    return f;
  }
}
