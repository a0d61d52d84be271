/**
 * Whole-run digests (format doc §7.4, §8.1, §8.2): the bundle hash of bundle.json, the replay digest, and
 * the comparison of bundle.json's events with the rows of the trace file.
 */
import { createDigester, Digester, fnv1a64HexOfText, sha256Hex, utf8 } from '../../digests';
import { Finding } from '../../model';
import { isObj, Obj } from '../common';
import { canonicalJson, pythonJsonString, rawWithout } from '../../json/pythonRawJson';
import { At, finding } from './catalog';
import { Evidence } from './evidence';
import { digestParts } from './payloadChecks';

/** The fields of one event the replay digest and the bundle comparison use. */
export interface EventKey {
  seq: number | null;
  type: string | null;
  payloadHash: unknown;
  /** FNV-1a of the payload_ref text (refs can be large; only equality matters). */
  refDigest: string | null;
  eventId: string | null;
  /** FNV-1a of the other row fields (step, session, state version, role, causal token, time), or null. */
  metaDigest: string | null;
}

/** The other fields compared between a file row and its bundle event, in a fixed order. */
export function metaOf(o: Record<string, unknown>, fields: KeyFields): string | null {
  if (fields === 'rust-span') return null;
  const keys = fields === 'event' ? ['session_id', 'step_id', 'state_version', 'agent_role', 'causal_token', 'timestamp'] : ['session_id', 'step_id', 'state_version', 'timestamp'];
  return fnv1a64HexOfText(JSON.stringify(keys.map((k) => o[k] ?? null)));
}

/** The comparable key of an event row or bundle event. */
export function eventKeyOf(seq: unknown, type: unknown, payloadHash: unknown, payloadRef: unknown, eventId: unknown, metaDigest: string | null = null): EventKey {
  return {
    metaDigest,
    seq: typeof seq === 'number' ? seq : null,
    type: typeof type === 'string' ? type : null,
    payloadHash,
    refDigest: typeof payloadRef === 'string' ? fnv1a64HexOfText(payloadRef) : payloadRef === undefined ? null : fnv1a64HexOfText(JSON.stringify(payloadRef)),
    eventId: typeof eventId === 'string' ? eventId : null,
  };
}

/**
 * The replay digest, fed one event at a time. Rust: stable_hash of "seq:type:payload_hash" joined with "|".
 * Python (`replay.py`): sha256_json of the list of {seq, type, payload_hash, payload_ref}.
 */
export class ReplayDigest {
  private readonly h: Digester;
  private count = 0;

  constructor(readonly form: 'python' | 'rust' | 'ts') {
    this.h = createDigester(form === 'rust' ? 'fnv1a64' : 'sha256');
    if (form !== 'rust') this.h.update(utf8('['));
  }

  add(seq: unknown, type: unknown, payloadHash: unknown, payloadRef: unknown): void {
    const sep = this.count++ > 0 ? (this.form === 'python' ? ',' : '|') : '';
    if (this.form === 'rust') {
      this.h.update(utf8(`${sep}${String(seq)}:${String(type)}:${String(payloadHash)}`));
      return;
    }
    if (this.form === 'ts') {
      // replay(): sha256JSON(events.map({seq, type, payload_hash, payload_ref})), JSON.stringify's compact form.
      this.h.update(utf8(`${sep ? ',' : ''}${JSON.stringify({ seq, type, payload_hash: payloadHash, payload_ref: payloadRef })}`));
      return;
    }
    this.h.update(utf8(`${sep}{"payload_hash":${py(payloadHash)},"payload_ref":${py(payloadRef)},"seq":${py(seq)},"type":${py(type)}}`));
  }

  hex(): string {
    if (this.form === 'rust') return this.h.digestHex();
    this.h.update(utf8(']'));
    return (this.form === 'ts' ? '' : 'sha256:') + this.h.digestHex();
  }
}

function py(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return pythonJsonString(v);
  return JSON.stringify(v);
}

/** Replay digest of bundle.json's events. */
export function bundleReplayDigest(events: unknown[], form: 'python' | 'rust' | 'ts'): string {
  const d = new ReplayDigest(form);
  for (const e of events) if (isObj(e)) d.add(e.seq, e.type ?? e.event_type, e.payload_hash, e.payload_ref);
  return d.hex();
}

function arr(o: Obj, k: string): unknown[] {
  const v = o[k];
  return Array.isArray(v) ? v : [];
}

/** bundle-hash: the bundle's own digest and manifest.json's copy of it. */
export function checkBundleHash(ev: Evidence, at: At): Finding[] {
  const b = ev.bundle;
  const bh = b.bundle_hash;
  if (typeof bh !== 'string') return [finding('bundle-hash', at, `bundle.json has no bundle_hash string (found ${JSON.stringify(bh)}).`)];
  const out: Finding[] = [];
  const d = digestParts(bh);
  if (d.algorithm === 'sha256' && !d.labelled) {
    // The TypeScript runtime: bare hex of SHA-256 over JSON.stringify of the bundle with bundle_hash set to null,
    // in the bundle's own key order (which JSON.parse keeps).
    const actual = sha256Hex(JSON.stringify({ ...b, bundle_hash: null }));
    if (actual !== d.hex) out.push(finding('bundle-hash', at, `bundle.json bundle_hash ${bh} does not match its content: SHA-256 of the bundle with bundle_hash null (the TypeScript runtime's rule) = ${actual}.`));
  } else if (d.algorithm === 'sha256') {
    const actual = sha256Hex(canonicalJson(rawWithout(ev.raw, ['bundle_hash'])));
    if (actual !== d.hex) out.push(finding('bundle-hash', at, `bundle.json bundle_hash ${bh} does not match its content: sha256_json(bundle without bundle_hash) = sha256:${actual}.`));
  } else if (d.algorithm === 'fnv1a64') {
    const run = isObj(b.run) ? b.run : {};
    const basis = `${String(run.run_id)}:${arr(b, 'steps').length}:${arr(b, 'events').length}:${arr(b, 'tool_ledger').length}:${arr(b, 'cost_records').length}`;
    const actual = fnv1a64HexOfText(basis);
    if (actual !== d.hex) out.push(finding('bundle-hash', at, `bundle.json bundle_hash ${bh} does not match stable_hash("${basis}") = ${actual}.`));
  } else {
    out.push(finding('hash-algorithm', at, `bundle.json bundle_hash ${JSON.stringify(bh)} is neither 16 nor 64 hex digits; it cannot be verified.`));
  }
  const mh = ev.manifest?.bundle_hash;
  if (ev.manifest && mh !== bh) out.push(finding('bundle-hash', at, `manifest.json bundle_hash ${JSON.stringify(mh)} differs from bundle.json's ${bh}.`));
  return out;
}

/** A file row for the bundle comparison. */
export interface FileEvent extends EventKey {
  line: number;
}

/** Which fields a file's rows carry: event rows all, Python spans no event id, Rust spans only seq and name. */
export type KeyFields = 'event' | 'python-span' | 'rust-span';

function differences(f: EventKey, b: EventKey, fields: KeyFields): string[] {
  const out: string[] = [];
  if (f.seq !== b.seq) out.push(`seq ${f.seq} vs ${b.seq}`);
  if (f.type !== b.type) out.push(`type ${f.type} vs ${b.type}`);
  if (fields === 'rust-span') return out;
  if (f.payloadHash !== b.payloadHash) out.push(`payload_hash ${JSON.stringify(f.payloadHash)} vs ${JSON.stringify(b.payloadHash)}`);
  if (f.refDigest !== b.refDigest) out.push('payload_ref');
  if (fields === 'event' && f.eventId !== b.eventId) out.push(`event_id ${f.eventId} vs ${b.eventId}`);
  if (f.metaDigest !== b.metaDigest) out.push(fields === 'event' ? 'step, session, state version, role, causal token or timestamp' : 'step, session, state version or time');
  return out;
}

/** A difference between the file and bundle.json, at the file line where it shows. */
interface Mismatch {
  at: FileEvent | undefined;
  what: string;
}

/** Aligns the file's rows with bundle.json's events by seq, so one deleted line is one difference. */
function mismatches(file: FileEvent[], keys: EventKey[], fields: KeyFields): Mismatch[] {
  const bySeq = new Map<number, EventKey>();
  for (const k of keys) if (k.seq !== null && !bySeq.has(k.seq)) bySeq.set(k.seq, k);
  const out: Mismatch[] = [];
  const seen = new Set<number>();
  for (const f of file) {
    const b = f.seq === null ? undefined : bySeq.get(f.seq);
    if (f.seq !== null) seen.add(f.seq);
    if (!b) {
      out.push({ at: f, what: `the row with seq ${f.seq} (${f.type}) is not among bundle.json's events` });
      continue;
    }
    const diff = differences(f, b, fields);
    if (diff.length > 0) out.push({ at: f, what: `seq ${f.seq} differs from bundle.json: ${diff.join(', ')}` });
  }
  for (const k of keys) {
    if (k.seq === null || seen.has(k.seq)) continue;
    seen.add(k.seq);
    // Point at the row that now stands where the missing event was.
    const next = file.find((f) => f.seq !== null && f.seq > k.seq!) ?? file[file.length - 1];
    out.push({ at: next, what: `bundle.json has seq ${k.seq} (${k.type}) that the file lacks` });
  }
  return out.sort((a, b) => (a.at?.line ?? 0) - (b.at?.line ?? 0));
}

/** bundle-events: the file's rows against bundle.json's events; one finding at the first difference. */
export function compareBundleEvents(file: FileEvent[], ev: Evidence, fields: KeyFields, replay: { file: string; form: 'python' | 'rust' | 'ts' }): Finding[] {
  const events = arr(ev.bundle, 'events');
  const keys = events.map((e) => (isObj(e) ? eventKeyOf(e.seq, e.type ?? e.event_type, e.payload_hash, e.payload_ref, e.event_id, metaOf(e, fields)) : eventKeyOf(null, null, null, null, null)));
  const diffs = mismatches(file, keys, fields);
  if (diffs.length === 0) return [];
  const first = diffs[0];
  const more = diffs.length > 1 ? ` (${diffs.length} differences in all)` : '';
  const bundleDigest = bundleReplayDigest(events, replay.form);
  const message = `${first.what}${more}; replay digest of the file ${replay.file}, of bundle.json ${bundleDigest}.`;
  return [finding('bundle-events', { line: first.at?.line ?? 1, seq: first.at?.seq }, message)];
}
