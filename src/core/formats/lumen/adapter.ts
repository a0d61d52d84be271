import { isObj } from '../common';
import { LumenTreeBuilder } from './lumenBuilder';
import { CHAIN_HASH_RE, GENESIS_HASH, isLumenKind, runIdFromFileName, UUID_RE } from './lumenFields';
import { BuilderSource, EventBuilder, FormatAdapter, SniffResult, SniffSample } from '../../format';

/** `.lumen/trace/<uuid>.jsonl` or any `trace/<uuid>.jsonl`: the writer's layout. */
function isWriterPath(path: string): boolean {
  const m = /(?:^|\/)trace\/([^/]+)\.jsonl$/i.exec(path);
  return m !== null && UUID_RE.test(m[1]);
}

/**
 * Content-based detection: every line has the six always-present keys (seq, kind, prev_hash, hash, timestamp,
 * doc_hash) with `sha256:` hashes, line 1 chains from `sha256:genesis`, kinds are the ten known ones.
 * The writer's file layout only breaks ties.
 */
export function sniffLumen(sample: SniffSample): SniffResult {
  if (sample.document) return { confidence: 0, reason: 'a JSON document, not JSON lines' };
  const objs = sample.values.filter(isObj);
  if (objs.length === 0) return { confidence: 0, reason: 'no JSON objects' };
  let shaped = 0;
  let hashed = 0;
  let known = 0;
  for (const o of objs) {
    if (typeof o.seq === 'number' && typeof o.kind === 'string' && typeof o.prev_hash === 'string' && typeof o.hash === 'string' && typeof o.timestamp === 'string' && typeof o.doc_hash === 'string') shaped++;
    if (typeof o.hash === 'string' && CHAIN_HASH_RE.test(o.hash)) hashed++;
    if (isLumenKind(o.kind)) known++;
  }
  const share = shaped / objs.length;
  if (share < 0.5) return { confidence: 0, reason: 'lines lack seq/kind/prev_hash/hash/timestamp/doc_hash' };
  const first = objs[0];
  let confidence = 0.8 * share;
  if (hashed / objs.length >= 0.9) confidence += 0.1;
  if (first.seq === 1 && first.kind === 'run_start' && first.prev_hash === GENESIS_HASH) confidence += 0.05;
  if (known / objs.length >= 0.9) confidence += 0.05;
  if (isWriterPath(sample.path)) confidence += 0.05;
  confidence = Math.min(1, confidence);
  return { confidence, reason: 'hash-chained lines with seq, kind, prev_hash, hash, timestamp and doc_hash' };
}

/** Lumen language runtime traces (`.lumen/trace/<run_id>.jsonl`, hash-chained). */
export const lumenAdapter: FormatAdapter = {
  name: 'lumen',
  title: 'Lumen trace (hash-chained)',
  sniff: sniffLumen,
  createBuilder(source: BuilderSource): EventBuilder {
    return new LumenTreeBuilder(source?.fileName ? runIdFromFileName(source.fileName) : null);
  },
};
