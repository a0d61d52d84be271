import { Buffer } from 'buffer';
import { basename, dirname, join } from '../../io/paths';
import { readTextFile } from '../../io/fileSystem';
import { contentName } from '../../byteSource';
import { isObj, Obj, str } from '../common';
import { CanonicalError, canonicalJson, kernelDigest } from './canonical';
import { stepSeqNumber } from './describeJournal';
import { decodeBase64, decodeRec, inputKind, KernelRecordView } from './journal';
import { Finding } from '../../model';
import { DEEPSTRIKE_CATALOG, DeepstrikeRuleId } from './catalog';

type Report = (rule: DeepstrikeRuleId, message: string) => void;

/** `op-<base64url(operationId)>` as the Node journal names an operation's directory (no padding). */
export function operationDirName(operationId: string): string {
  return `op-${Buffer.from(operationId, 'utf8').toString('base64url')}`;
}

/** The 12-digit zero-padded `.rec` file name of a step. */
export function recFileName(step: number): string {
  return `${String(step).padStart(12, '0')}.rec`;
}

function canonicalProblem(record: Obj, bytes: string | null): string | null {
  try {
    const c = canonicalJson(record);
    return bytes !== null && c !== bytes ? 'record_bytes are not canonical JSON (re-canonicalizing changes the bytes)' : null;
  } catch (err) {
    return err instanceof CanonicalError ? `record is not canonicalizable: ${err.message}` : String(err);
  }
}

/**
 * Verifies a kernel journal's hash chain (§8.4): per record the canonical bytes, record and input digests, outer
 * `.rec` fields, step_seq succession, previous digest, genesis and operation id; then what only the file system
 * can tell (the `.rec` name, the `op-…` directory, the previous `.rec` file or `pruned.json`).
 */
export class JournalVerifier {
  private out: Finding[] = [];
  private prev: { step: number | null; digest: string | null } | null = null;
  private first: { step: number | null; previous: string | null; line: number } | null = null;
  private operation: string | null = null;
  private count = 0;

  constructor(private readonly path: string) {}

  /** Verifies one record (a `.rec` envelope or a decoded record) at a line. */
  add(rec: Obj | null, record: Obj | null, line: number, seq?: number): void {
    const f: Report = (rule, message) => this.out.push(DEEPSTRIKE_CATALOG.finding(rule, line, message, { seq }));
    const view: KernelRecordView = rec ? decodeRec(rec) : { record, bytes: null, rec: null, error: null };
    this.count++;
    if (!view.record) {
      f('deepstrike/journal-canonical', `${view.error ?? 'record cannot be decoded'}`);
      this.prev = { step: stepSeqNumber(rec?.step_seq), digest: str(rec, 'record_digest') };
      return;
    }
    const r = view.record;
    const problem = canonicalProblem(r, view.bytes);
    if (problem) f('deepstrike/journal-canonical', problem);
    if (rec) this.outerAgreement(rec, r, f);
    this.digests(r, f);
    const step = this.succession(r, line, f);
    this.operationId(r, f);
    this.prev = { step, digest: str(r, 'record_digest') };
  }

  /** File-system evidence, then the findings. */
  async finish(): Promise<Finding[]> {
    if (this.count === 0) return this.out;
    await this.fileEvidence();
    this.out.push(DEEPSTRIKE_CATALOG.finding('deepstrike/journal-step-digest', 1, `step_digest of ${this.count} record${this.count === 1 ? '' : 's'} cannot be verified outside the kernel (it requires re-running the step)`));
    return this.out;
  }

  private outerAgreement(rec: Obj, r: Obj, f: Report): void {
    const outer = stepSeqNumber(rec.step_seq);
    if (outer === null || String(outer) !== r.step_seq) f('deepstrike/journal-step-seq', `.rec step_seq ${JSON.stringify(rec.step_seq)} does not agree with the record's step_seq ${JSON.stringify(r.step_seq)}`);
    if (rec.record_digest !== r.record_digest) f('deepstrike/journal-step-seq', `.rec record_digest ${String(rec.record_digest)} does not agree with the record's ${String(r.record_digest)}`);
    const outerPrev = rec.previous_record_digest ?? null;
    if (outerPrev !== (r.previous_record_digest ?? null)) f('deepstrike/journal-step-seq', `.rec previous_record_digest ${String(outerPrev)} does not agree with the record's ${String(r.previous_record_digest)}`);
  }

  private digests(r: Obj, f: Report): void {
    const { record_digest: claimed, ...rest } = r;
    try {
      const actual = kernelDigest(canonicalJson(rest));
      if (actual !== claimed) f('deepstrike/journal-record-digest', `record_digest is ${String(claimed)}, the canonical record hashes to ${actual}`);
    } catch {
      // not canonicalizable: already reported as journal-canonical
    }
    const ci = isObj(r.canonical_input) ? r.canonical_input : null;
    const data = ci && ci.encoding === 'base64' && typeof ci.data === 'string' ? decodeBase64(ci.data) : null;
    if (!data) f('deepstrike/journal-input-digest', 'canonical_input is not {"data": <padded base64>, "encoding": "base64"}');
    else {
      const actual = kernelDigest(data);
      if (actual !== r.input_digest) f('deepstrike/journal-input-digest', `input_digest is ${String(r.input_digest)}, the canonical input hashes to ${actual}`);
    }
  }

  /** step_seq, previous digest and genesis rules; returns the record's step. */
  private succession(r: Obj, line: number, f: Report): number | null {
    const step = typeof r.step_seq === 'string' ? stepSeqNumber(r.step_seq) : null;
    const previous = typeof r.previous_record_digest === 'string' ? r.previous_record_digest : null;
    if (step === null) f('deepstrike/journal-step-seq', `step_seq ${JSON.stringify(r.step_seq)} is not a canonical decimal string`);
    const kind = inputKind(r);
    if (step === 0) {
      if (r.previous_record_digest !== null) f('deepstrike/journal-genesis', `genesis (step_seq "0") has previous_record_digest ${JSON.stringify(r.previous_record_digest)}, expected null`);
      if (kind !== 'configure_operation') f('deepstrike/journal-genesis', `genesis input kind is ${kind ?? 'unreadable'}, expected configure_operation`);
    } else {
      if (kind === 'configure_operation') f('deepstrike/journal-genesis', `configure_operation may only be the genesis input, found at step_seq ${JSON.stringify(r.step_seq)}`);
      if (previous === null) f('deepstrike/journal-prev-digest', 'previous_record_digest is null on a non-genesis record (null only at genesis)');
    }
    if (this.prev === null) this.first = { step, previous, line };
    else {
      const expected = this.prev.step !== null ? this.prev.step + 1 : null;
      if (step !== null && expected !== null && step !== expected) f('deepstrike/journal-step-seq', `step_seq "${step}" does not follow "${this.prev.step}" (expected "${expected}")`);
      if (step !== 0 && previous !== null && previous !== this.prev.digest) f('deepstrike/journal-prev-digest', `previous_record_digest ${previous} is not the previous record's record_digest ${String(this.prev.digest)}`);
    }
    return step;
  }

  private operationId(r: Obj, f: Report): void {
    const op = str(r, 'operation_id');
    if (this.operation === null) this.operation = op;
    else if (op !== this.operation) f('deepstrike/journal-operation', `operation_id ${String(op)} differs from the journal's ${this.operation}`);
  }

  private async fileEvidence(): Promise<void> {
    const first = this.first;
    const name = contentName(basename(this.path));
    const opDir = basename(dirname(dirname(this.path)));
    const at = first?.line ?? 1;
    const f: Report = (rule, message) => this.out.push(DEEPSTRIKE_CATALOG.finding(rule, at, message));
    if (/^\d+\.rec$/.test(name) && this.count === 1 && first?.step != null && name !== recFileName(first.step)) {
      f('deepstrike/journal-step-seq', `file name ${name} does not match step_seq ${first.step} (expected ${recFileName(first.step)})`);
    }
    if (opDir.startsWith('op-') && this.operation !== null) {
      const expected = operationDirName(this.operation);
      if (opDir.replace(/=+$/, '') !== expected) f('deepstrike/journal-operation', `directory ${opDir} is not ${expected} (base64url of operation_id ${this.operation})`);
    }
    if (!first || first.step === null || first.step === 0) return;
    const prevFile = /\.rec$/.test(name) ? join(dirname(this.path), recFileName(first.step - 1)) : null;
    const prevDigest = prevFile ? await readRecDigest(prevFile) : undefined;
    if (typeof prevDigest === 'string') {
      if (first.previous !== prevDigest) f('deepstrike/journal-prev-digest', `previous_record_digest ${String(first.previous)} is not ${recFileName(first.step - 1)}'s record_digest ${prevDigest}`);
      return;
    }
    const pruned = await readJson(join(dirname(this.path), '..', 'pruned.json'));
    const through = isObj(pruned) ? stepSeqNumber(pruned.through_step_seq) : null;
    if (isObj(pruned) && through !== null && through >= first.step - 1) {
      const covered = through === first.step - 1 && pruned.covered_head !== first.previous;
      f('deepstrike/journal-pruned', covered
        ? `pruned.json covers through step ${through} with covered_head ${String(pruned.covered_head)}, but this record links to ${String(first.previous)}`
        : `records through step ${through} were pruned (pruned.json); the link to step ${first.step - 1} cannot be checked`);
    } else {
      f('deepstrike/journal-pruned', `the journal starts at step_seq ${first.step}; record ${first.step - 1} is not present, so its link cannot be checked`);
    }
  }
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readTextFile(path)) as unknown;
  } catch {
    return undefined;
  }
}

/** The record_digest of a `.rec` file, or undefined when it cannot be read. */
async function readRecDigest(path: string): Promise<string | undefined> {
  const v = await readJson(path);
  return isObj(v) && typeof v.record_digest === 'string' ? v.record_digest : undefined;
}
