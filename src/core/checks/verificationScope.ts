import { FormatName } from '../model';

/**
 * What verification proves for each format, and what it cannot: shown next to every verification result
 * (viewer, CLI) so that "intact" is never read as more than it is.
 */
export const VERIFICATION_SCOPE: Record<FormatName, string> = {
  lumen:
    'Proves every line hashes to its `hash` and links to the line before (from sha256:genesis), so an edited, deleted, inserted or reordered line breaks the chain where it happened. Cannot prove authorship: a file rewritten from the first line with recomputed hashes verifies, and a file cut after a complete line verifies as far as it goes (only a missing run_end, checked by conformance, hints at a truncated tail).',
  agentledger:
    'Proves each payload matches its digest, seq runs 1, 2, 3…, blobs match their names and the ledger links and bundle agree. The Rust writer\'s "sha256" digests are 64-bit FNV-1a: they catch accidents, not forgery. There is no chain across lines, so a consistently rewritten file verifies.',
  murmur:
    'murmur writes no hash chain. Proves every parent_id names an earlier event, event ids are unique and every blob rehashes to its name. Cannot detect an edited event whose links stay valid, or lines removed from the end.',
  'harness-ledger':
    'The harness ledger has no hash chain. Proves seq runs 0, 1, 2… without gaps and one run per file; an edited field or a consistently renumbered file is not detectable.',
  deepstrike:
    'The session log has no hash chain: proves framing and seq density only. A kernel journal next to it, when present, is a real digest chain and is verified record by record.',
  'claude-code':
    'Claude Code transcripts have no hash chain or blobs: proves unique uuids and parent links that resolve without cycles, nothing about the content.',
  codex: 'Codex rollouts have no hash chain or blobs: proves the line shape and the session header, nothing about the content.',
  otlp: 'OTLP/JSON has no hash chain: proves span and trace id formats, unique ids and parents without cycles, nothing about the content.',
  generic: 'A generic JSONL file has no integrity data: proves ids are unique and parents resolve without cycles, nothing about the content.',
};
