import { CHAIN_HASH_RE, GENESIS_HASH, SLOT } from './lumenFields';
import { Finding } from '../../model';
import { LUMEN_CATALOG, LumenRuleId } from './lumenRuleCatalog';
import { CheckContext, LineInput, StreamCheck } from '../../checks/types';
import { findDocHashSource } from './lumenDocSource';
import { LumenLineReader, nextSeq, seqNumber } from './lumenLine';
import { bomFinding, EndTracker, LineSet, openLine, tornLines } from './lumenShared';

const { seq: SEQ, kind: KIND, prev_hash: PREV_HASH, hash: HASH, doc_hash: DOC_HASH, details: DETAILS } = SLOT;
const CHAIN_RULES = new Set(['lumen/chain-seq', 'lumen/chain-genesis', 'lumen/chain-prev-hash', 'lumen/event-hash']);

/**
 * Verifies a Lumen trace's hash chain (lumen.md §6.4) line by line. Unlike upstream, which stops at the first
 * failure, it goes on, re-basing the expected seq and prev_hash on each line's stored values, so every
 * independent break is reported once, at the line where it shows.
 */
export class LumenChainVerifier implements StreamCheck {
  private readonly reader = new LumenLineReader();
  private readonly findings: Finding[] = [];
  private readonly torn: LineSet;
  private readonly end = new EndTracker();
  /** Decimal text of the seq the next line must carry; null when a broken line made it unknown. */
  private expectedSeq: string | null = '1';
  /** The previous line's stored hash; null when it could not be read. */
  private expectedPrev: string | null = GENESIS_HASH;
  private first = true;
  private docHash: string | null = null;

  constructor(private readonly ctx: CheckContext) {
    this.torn = tornLines(ctx);
    if (ctx.model.bom) this.findings.push(bomFinding());
  }

  add(input: LineInput): void {
    const opened = openLine(input, this.torn, this.end, this.reader, this.findings);
    if (opened === 'invalid') this.breakChain();
    if (opened !== 'read') return;
    const r = this.reader;
    const line = input.line;
    for (const f of r.loadFindings(line)) this.findings.push(f);
    this.lineNotes(line);
    this.chain(line);
    this.end.event(line, r.string(KIND), seqNumber(r.seqText()));
    if (this.docHash === null) this.docHash = r.string(DOC_HASH);
  }

  async finish(): Promise<Finding[]> {
    this.firstFailureNote();
    const truncated = this.end.finding();
    if (truncated) this.findings.push(truncated);
    const source = this.docHash ? await findDocHashSource(this.ctx.path, this.docHash) : null;
    if (source) {
      this.findings.push(LUMEN_CATALOG.finding('lumen/doc-hash-resolve', 1, `doc_hash ${this.docHash} is the SHA-256 of ${source}`));
    }
    return this.findings;
  }

  /** A line that could not be read still took a place in the chain: count its seq, forget its hash. */
  private breakChain(): void {
    if (this.expectedSeq !== null) this.expectedSeq = nextSeq(this.expectedSeq);
    this.expectedPrev = null;
    this.first = false;
  }

  /** The three checks of verify_event_chain, in upstream's order, with upstream's messages. */
  private chain(line: number): void {
    const r = this.reader;
    const seqText = r.seqText();
    const shownSeq = seqText ?? r.canon[SEQ] ?? '?';
    const hash = r.string(HASH);
    const expectedHash = hash === null ? null : r.computeHash();
    const intact = expectedHash !== null && expectedHash === hash;
    if (seqText !== null && this.expectedSeq !== null && seqText !== this.expectedSeq) {
      this.report('lumen/chain-seq', line, `trace sequence mismatch at seq ${seqText} (expected ${this.expectedSeq})`);
    }
    // Count on from the line's own seq (one finding per gap), unless the line itself fails its hash: then its
    // seq may be the edited field, and the count goes on from the expected value.
    if (seqText !== null && (intact || this.expectedSeq === null)) this.expectedSeq = nextSeq(seqText);
    else if (this.expectedSeq !== null) this.expectedSeq = nextSeq(this.expectedSeq);
    const prev = r.string(PREV_HASH);
    if (prev !== null && this.expectedPrev !== null && prev !== this.expectedPrev) {
      const rule = this.first ? 'lumen/chain-genesis' : 'lumen/chain-prev-hash';
      this.report(rule, line, `trace hash chain mismatch at seq ${shownSeq} (expected prev '${this.expectedPrev}', got '${prev}')`);
    }
    // A prev_hash equal to the checked predecessor's hash is well-formed already.
    if (prev !== null && prev !== this.expectedPrev && prev !== GENESIS_HASH && !CHAIN_HASH_RE.test(prev)) {
      this.report('lumen/hash-format', line, `prev_hash '${prev}' is neither sha256:genesis nor sha256: followed by 64 lowercase hex digits`);
    }
    if (hash !== null && !intact) {
      this.report('lumen/event-hash', line, `trace event hash mismatch at seq ${shownSeq} (expected '${expectedHash}', got '${hash}')`);
      if (!CHAIN_HASH_RE.test(hash)) this.report('lumen/hash-format', line, `hash '${hash}' is not sha256: followed by 64 lowercase hex digits`);
    }
    // Upstream chains on the stored hash, not the recomputed one: a tampered line breaks only itself.
    this.expectedPrev = hash;
    this.first = false;
  }

  private report(rule: LumenRuleId, line: number, message: string): void {
    const seq = seqNumber(this.reader.seqText());
    this.findings.push(LUMEN_CATALOG.finding(rule, line, message, seq !== undefined ? { seq } : undefined));
  }

  /** Per-line notes that do not break the chain: unknown keys, floats. */
  private lineNotes(line: number): void {
    const r = this.reader;
    if (r.unknownKeys.length > 0) {
      const keys = r.unknownKeys.map((k) => `\`${k}\``).join(', ');
      const many = r.unknownKeys.length > 1;
      this.report('lumen/unknown-key', line, `unknown key${many ? 's' : ''} ${keys}: ignored upstream and not covered by the hash, so ${many ? 'their values are' : 'its value is'} unprotected`);
    }
    if (r.floatInDetails) {
      this.report('lumen/float-in-details', line, `details holds a float; the hash check re-prints it in serde_json's ryu layout (${r.canon[DETAILS]!.slice(0, 60)})`);
    }
  }

  /** Upstream stops at the first failure; say where, when this report shows more than that one line. */
  private firstFailureNote(): void {
    const failing = this.findings.filter((f) => CHAIN_RULES.has(f.rule));
    if (failing.length === 0) return;
    const firstLine = Math.min(...failing.map((f) => f.line));
    const later = failing.filter((f) => f.line !== firstLine);
    if (later.length === 0) return;
    const first = failing.find((f) => f.line === firstLine)!;
    this.findings.push(LUMEN_CATALOG.finding('lumen/chain-first-failure', firstLine,
      `upstream verify_event_chain stops here with "${first.message}"; the ${later.length} chain finding${later.length > 1 ? 's' : ''} after line ${firstLine} come from continuing on each line's stored seq and hash`,
      first.seq !== undefined ? { seq: first.seq } : undefined));
  }
}
