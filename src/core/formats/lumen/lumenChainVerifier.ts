import { CHAIN_HASH_RE, GENESIS_HASH, LUMEN_KINDS, SLOT } from './lumenFields';
import { Finding } from '../../model';
import { LUMEN_CATALOG, LumenRuleId } from './lumenRuleCatalog';
import { CheckContext, LineInput, StreamCheck } from '../../rules/types';
import { findDocHashSource } from './lumenDocSource';
import { LumenLineReader, nextSeq, seqNumber } from './lumenLine';
import { bomFinding, EndTracker, LineSet, openLine, tornLines } from './lumenShared';
import { hashText, LumenDigestColumns, sameHash } from './lumenDigest';
import { LumenFastLine } from './lumenFastLine';
import { fastFieldsClean, fastHashMatches, FastTimestamps } from './lumenFastChecks';

const { seq: SEQ, kind: KIND, prev_hash: PREV_HASH, hash: HASH, doc_hash: DOC_HASH, details: DETAILS } = SLOT;
const CHAIN_RULES = new Set(['lumen/chain-seq', 'lumen/chain-genesis', 'lumen/chain-prev-hash', 'lumen/event-hash']);

/**
 * Verifies a Lumen trace's hash chain (lumen.md §6.4) line by line. Unlike upstream, which stops at the first
 * failure, it goes on, re-basing the expected seq and prev_hash on each line's stored values, so every
 * independent break is reported once, at the line where it shows.
 */
export class LumenChainVerifier implements StreamCheck {
  private readonly reader = new LumenLineReader();
  private readonly fast = new LumenFastLine();
  private readonly times = new FastTimestamps();
  private readonly findings: Finding[] = [];
  private readonly torn: LineSet;
  private readonly end = new EndTracker();
  /** Decimal text of the seq the next line must carry; null when a broken line made it unknown. */
  private expectedSeq: string | null = '1';
  /** The previous line's stored hash; null when it could not be read (or when it is in `expectedBytes`). */
  private expectedPrev: string | null = GENESIS_HASH;
  /** The previous line's stored hash when a range worker digested it: 32 bytes at `expectedRow` of these. */
  private expectedBytes: Uint8Array | null = null;
  private expectedRow = 0;
  /** The previous line's hash when the fast path read it: `sha256:` + these 64 hex digits (else null). */
  private expectedHex: string | null = null;
  private first = true;
  private docHash: string | null = null;

  constructor(private readonly ctx: CheckContext) {
    this.torn = tornLines(ctx);
    if (ctx.model.bom) this.findings.push(bomFinding());
  }

  add(input: LineInput): void {
    if (input.digest) return this.addDigest(input.line, input.digest.columns as LumenDigestColumns, input.digest.row);
    if (input.bytes !== undefined && this.addFast(input)) return;
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

  /**
   * A line a range worker digested (lumenDigest.ts): its hash matched and it has nothing to report on its own, so
   * only the links to the line before are left: seq and prev_hash, as {@link chain} checks them.
   */
  private addDigest(line: number, c: LumenDigestColumns, row: number): void {
    const seq = c.seq[row];
    const seqText = String(seq);
    if (this.expectedSeq !== null && seqText !== this.expectedSeq) {
      this.report('lumen/chain-seq', line, `trace sequence mismatch at seq ${seqText} (expected ${this.expectedSeq})`, seq);
    }
    this.expectedSeq = nextSeq(seqText);
    if (!this.linksToExpected(c, row)) {
      const prev = c.genesis[row] ? GENESIS_HASH : hashText(c.prev, row);
      const rule = this.first ? 'lumen/chain-genesis' : 'lumen/chain-prev-hash';
      this.report(rule, line, `trace hash chain mismatch at seq ${seqText} (expected prev '${this.expectedPrevText()}', got '${prev}')`, seq);
    }
    this.expectedPrev = null;
    this.expectedHex = null;
    this.expectedBytes = c.hash;
    this.expectedRow = row;
    this.first = false;
    this.end.event(line, c.table[c.kind[row]], seq);
    if (this.docHash === null && c.docHash[row] >= 0) this.docHash = c.table[c.docHash[row]];
  }

  /**
   * A line in the fast reader's subset (lumenFastLine.ts) that has nothing to report: it parses, its fields are
   * right, its hash matches, its seq is the expected one and its prev_hash links to the line before (or nothing is
   * expected after a broken line). Then the state moves on as {@link chain} moves it; false (and no change) for
   * any other line, which the slow path reads.
   */
  private addFast(input: LineInput): boolean {
    const f = this.fast;
    if (input.blank || !(input.validJson ?? input.value !== undefined) || this.torn.has(input.line) || !f.read(input.bytes!, false, input.utf8 === true) || !fastFieldsClean(f, this.times)) return false;
    const seq = f.integer(SEQ);
    if ((this.expectedSeq !== null && String(seq) !== this.expectedSeq) || !this.fastLinks()) return false;
    const hex = fastHashMatches(f);
    if (hex === null) return false;
    this.expectedSeq = String(seq + 1);
    this.expectedPrev = null;
    this.expectedBytes = null;
    this.expectedHex = hex;
    this.first = false;
    this.end.event(input.line, LUMEN_KINDS[f.kindIndex(KIND)], seq);
    if (this.docHash === null) this.docHash = f.string(DOC_HASH);
    return true;
  }

  /** Whether the fast reader's prev_hash is the expected one, or well-formed when nothing is expected. */
  private fastLinks(): boolean {
    const f = this.fast;
    if (this.expectedHex !== null) return f.hashEquals(PREV_HASH, this.expectedHex);
    if (this.expectedBytes !== null) return f.stringEquals(PREV_HASH, hashText(this.expectedBytes, this.expectedRow));
    if (this.expectedPrev !== null) return f.stringEquals(PREV_HASH, this.expectedPrev);
    return f.stringEquals(PREV_HASH, GENESIS_HASH) || f.isChainHash(PREV_HASH);
  }

  /** Whether a digested line's prev_hash is the expected one (or nothing is expected after a broken line). */
  private linksToExpected(c: LumenDigestColumns, row: number): boolean {
    if (this.expectedBytes !== null) return !c.genesis[row] && sameHash(c.prev, row, this.expectedBytes, this.expectedRow);
    const expected = this.expectedPrevText();
    if (expected === null) return true;
    return expected === (c.genesis[row] ? GENESIS_HASH : hashText(c.prev, row));
  }

  /** The previous line's stored hash as text, wherever it was read; null when it could not be read. */
  private expectedPrevText(): string | null {
    if (this.expectedHex !== null) return 'sha256:' + this.expectedHex;
    return this.expectedBytes !== null ? hashText(this.expectedBytes, this.expectedRow) : this.expectedPrev;
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
    this.expectedBytes = null;
    this.expectedHex = null;
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
    const expectedPrev = this.expectedPrevText();
    if (prev !== null && expectedPrev !== null && prev !== expectedPrev) {
      const rule = this.first ? 'lumen/chain-genesis' : 'lumen/chain-prev-hash';
      this.report(rule, line, `trace hash chain mismatch at seq ${shownSeq} (expected prev '${expectedPrev}', got '${prev}')`);
    }
    // A prev_hash equal to the checked predecessor's hash is well-formed already.
    if (prev !== null && prev !== expectedPrev && prev !== GENESIS_HASH && !CHAIN_HASH_RE.test(prev)) {
      this.report('lumen/hash-format', line, `prev_hash '${prev}' is neither sha256:genesis nor sha256: followed by 64 lowercase hex digits`);
    }
    if (hash !== null && !intact) {
      this.report('lumen/event-hash', line, `trace event hash mismatch at seq ${shownSeq} (expected '${expectedHash}', got '${hash}')`);
      if (!CHAIN_HASH_RE.test(hash)) this.report('lumen/hash-format', line, `hash '${hash}' is not sha256: followed by 64 lowercase hex digits`);
    }
    // Upstream chains on the stored hash, not the recomputed one: a tampered line breaks only itself.
    this.expectedPrev = hash;
    this.expectedBytes = null;
    this.expectedHex = null;
    this.first = false;
  }

  /** `seq`: the line's, when a digest gave it (else the reader's line). */
  private report(rule: LumenRuleId, line: number, message: string, seq = seqNumber(this.reader.seqText())): void {
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
