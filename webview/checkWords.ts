/**
 * The words for check results in the header chips and the Checks list. A verification reads by cause
 * (chain, sequence, blobs, lines and links), so a missing blob says "blobs: … missing", never "chain broken",
 * and a format without a chain says nothing about one. Pure (unit-tested in Node).
 */
import type { CheckSummary, IntegrityPart } from '../src/protocol';
import { formatInt, plural } from './format';

/**
 * One chip: its text, its look (`ok`, `warn`, `bad`, or `neutral` for a file with nothing to check), its icon, the
 * line a click reveals and its tooltip.
 */
export interface CheckWords {
  text: string;
  cls: 'ok' | 'warn' | 'bad' | 'neutral';
  iconName: string;
  line: number | null;
  title: string;
}

/** The chips of one check result. */
export function checkChips(s: CheckSummary): CheckWords[] {
  if (s.stale) return [staleChip(s)];
  const cancelled = s.cancelled ? ' (cancelled)' : '';
  // An empty file proves nothing: it is not "intact", and no green chip says it is.
  if (s.checked === 0 && s.errors === 0 && s.warnings === 0 && !s.cancelled) return [emptyChip(s)];
  if (s.mode === 'check') return [conformanceChip(s, cancelled)];
  const v = s.integrity;
  if (!v) return [legacyVerifyChip(s, cancelled)];
  const out: CheckWords[] = [];
  if (v.chain) out.push(partChip(v.chain, 'chain intact', (at) => `chain broken at line ${at}`, 'Hash chain: each line links to the one before it.'));
  if (v.sequence) out.push(partChip(v.sequence, 'sequence intact', (at) => `sequence gap at line ${at}`, 'Sequence numbers run without gaps or repeats.'));
  if (v.blobs) {
    const b = v.blobs;
    const counts = [b.verified !== null ? `${formatInt(b.verified)} verified` : '', b.missing ? `${formatInt(b.missing)} missing` : '', b.mismatched ? `${formatInt(b.mismatched)} mismatched` : '', b.other ? `${formatInt(b.other)} not checked` : ''].filter(Boolean);
    const chip = partChip(b, '', () => '', 'Content blobs: each blob rehashes to the digest that names it. The trace lines are not affected.');
    chip.text = `blobs: ${counts.join(', ') || 'none'}`;
    if (b.errors === 0 && b.warnings === 0 && (b.missing > 0 || b.mismatched > 0)) chip.cls = 'warn';
    out.push(chip);
  }
  out.push(partChip(v.structure, `lines and links intact: ${plural(s.checked, 'event')}`, (at) => `lines and links: ${plural(v.structure.errors || v.structure.warnings, v.structure.errors ? 'error' : 'warning')} from line ${at}`, 'Lines parse, ids are unique and parent links resolve.'));
  if (cancelled) for (const c of out) c.text += cancelled;
  return out;
}

/** A check of a file without events: neutral, it says so. */
function emptyChip(s: CheckSummary): CheckWords {
  const what = s.mode === 'verify' ? 'Verification' : 'Conformance checks';
  return { text: 'empty: no events to check', cls: 'neutral', iconName: 'circle-slash', line: null, title: `${what}: the file has no events, so there is nothing to prove or check.` };
}

/** A result that predates an append (live tail): its counts are not the trace's, so none is shown as current. */
function staleChip(s: CheckSummary): CheckWords {
  const what = s.mode === 'verify' ? 'verification' : 'conformance';
  return { text: `${what}: outdated (${plural(s.checked, 'event')} checked, the trace grew)`, cls: 'warn', iconName: 'history', line: null, title: 'The trace grew after this check ran. Traces checked on open are checked again; run the check to update the others.' };
}

/** The Checks list's one-line summary of a result (its group title names the mode). */
export function checkShort(s: CheckSummary): { text: string; cls: CheckWords['cls'] } {
  const chips = checkChips(s);
  const cls = chips.some((c) => c.cls === 'bad') ? 'bad' : chips.some((c) => c.cls === 'warn') ? 'warn' : chips.every((c) => c.cls === 'neutral') ? 'neutral' : 'ok';
  return { text: chips.map((c) => c.text).join(' · '), cls };
}

function partChip(p: IntegrityPart, intact: string, broken: (at: string) => string, title: string): CheckWords {
  const at = formatInt(p.firstLine ?? 0);
  if (p.errors > 0) return { text: broken(at), cls: 'bad', iconName: 'error', line: p.firstLine, title };
  if (p.warnings > 0) return { text: broken(at), cls: 'warn', iconName: 'warning', line: p.firstLine, title };
  return { text: intact, cls: 'ok', iconName: 'verified', line: null, title };
}

function conformanceChip(s: CheckSummary, cancelled: string): CheckWords {
  const title = 'Conformance checks: click to see the findings';
  if (s.errors === 0 && s.warnings === 0) return { text: `conforms: ${plural(s.checked, 'event')}${cancelled}`, cls: 'ok', iconName: 'pass', line: null, title };
  const parts = [s.errors ? plural(s.errors, 'error') : '', s.warnings ? plural(s.warnings, 'warning') : ''].filter(Boolean).join(', ');
  return { text: `conformance: ${parts}${cancelled}`, cls: s.errors ? 'bad' : 'warn', iconName: s.errors ? 'error' : 'warning', line: s.firstErrorLine, title };
}

/** A summary from a host without the by-cause view. */
function legacyVerifyChip(s: CheckSummary, cancelled: string): CheckWords {
  const warn = s.warnings ? `, ${plural(s.warnings, 'warning')}` : '';
  if (s.errors === 0) return { text: `verified: ${plural(s.checked, 'event')}${warn}${cancelled}`, cls: 'ok', iconName: 'verified', line: null, title: 'Verification' };
  return { text: `verification: ${plural(s.errors, 'error')}${warn} from line ${formatInt(s.firstErrorLine ?? 0)}${cancelled}`, cls: 'bad', iconName: 'error', line: s.firstErrorLine, title: 'Verification' };
}
