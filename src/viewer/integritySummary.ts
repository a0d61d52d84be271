/**
 * A verification result by cause, for the header and the Checks list: chain, sequence, blobs, and lines and
 * links. Each finding counts for the part its rule speaks for (core/checks/integrityKind.ts), so a missing
 * blob never reads as a broken chain. vscode-free.
 */
import type { CheckResult } from '../core/checks/runChecks';
import { integrityKindOf } from '../core/checks/integrityKind';
import { integrityKindsOf } from '../core/formatRules';
import type { Finding } from '../core/model';
import type { IntegrityPart, IntegrityView } from '../protocol';

/** Rule ids (format-neutral and agentledger's own) that say a blob is missing or does not match. */
const MISSING = /^blob\/missing$|\/blob-exists$/;
const MISMATCH = /^blob\/mismatch$|\/blob-integrity$|\/blob-decode$|-blob-hash$/;

/** Splits a verification result by cause (see the file comment). */
export function integrityOf(result: CheckResult): IntegrityView {
  const kinds = integrityKindsOf(result.format);
  const parts = { chain: emptyPart(), sequence: emptyPart(), content: emptyPart(), structure: emptyPart() };
  let missing = 0;
  let mismatched = 0;
  let otherBlob = 0;
  const spoken = new Set<string>();
  for (const f of result.findings) {
    const kind = integrityKindOf(f.rule);
    spoken.add(kind);
    count(parts[kind], f);
    if (kind !== 'content' || f.severity === 'info') continue;
    if (MISSING.test(f.rule)) missing++;
    else if (MISMATCH.test(f.rule)) mismatched++;
    else otherBlob++;
  }
  const view: IntegrityView = { structure: parts.structure };
  // A part every file of the format has, or one a finding (even an info) speaks for in this file.
  if (kinds.has('chain') || spoken.has('chain')) view.chain = parts.chain;
  if (kinds.has('sequence') || spoken.has('sequence')) view.sequence = parts.sequence;
  const t = result.blobs;
  if (t) view.blobs = { ...parts.content, verified: t.verified, missing: t.missing, mismatched: t.mismatched, other: t.other };
  else if (parts.content.errors + parts.content.warnings > 0) view.blobs = { ...parts.content, verified: null, missing, mismatched, other: otherBlob };
  return view;
}

function emptyPart(): IntegrityPart {
  return { errors: 0, warnings: 0, firstLine: null };
}

/** Counts a finding; the first line is the first error's, or the first warning's while there is no error. */
function count(p: IntegrityPart, f: Finding): void {
  if (f.severity === 'error') {
    p.firstLine = p.errors === 0 || p.firstLine === null ? f.line : Math.min(p.firstLine, f.line);
    p.errors++;
  } else if (f.severity === 'warning') {
    if (p.errors === 0) p.firstLine = p.firstLine === null ? f.line : Math.min(p.firstLine, f.line);
    p.warnings++;
  }
}
