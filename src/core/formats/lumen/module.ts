import type { FormatModule } from '../../format';
import { lumenAdapter } from './adapter';
import { lumenRules } from './rules';
import { lumenLineLabel } from './lumenLabels';
import { LumenLineScanner } from './lumenScanner';

/** The lumen format: detection, reading, rules and what its verification proves. */
export const lumenFormat: FormatModule = {
  ...lumenAdapter,
  groupNoun: 'run',
  // Lumen writes `.lumen/trace/<run_id>.jsonl`.
  fileNamePatterns: ['**/.lumen/trace/*.jsonl'],
  deriveLabel: lumenLineLabel,
  rules: lumenRules,
  sideFolders: ['cache'],
  strictText: true,
  // What LumenTreeBuilder reads of a line (lumenBuilder.ts): the worker-thread reader sends only these.
  lineFields: [
    'seq', 'kind', 'timestamp', 'cell', 'doc_hash', 'inputs_hash', 'outputs_hash', 'policy_hash', 'tool_id', 'latency_ms', 'cached', 'message',
    'details', 'details.result_type', 'details.ip', 'details.opcode', 'details.success', 'details.schema', 'details.valid',
  ],
  // Lines written the writer's way are read from their bytes, without JSON.parse (lumenScanner.ts).
  lineScanner: (plan) => new LumenLineScanner(plan),
  verificationScope:
    'Proves every line hashes to its `hash` and links to the line before (from sha256:genesis), so an edited, deleted, inserted or reordered line breaks the chain where it happened. Cannot prove authorship: a file rewritten from the first line with recomputed hashes verifies, and a file cut after a complete line verifies as far as it goes (only a missing run_end, checked by conformance, hints at a truncated tail).',
};
