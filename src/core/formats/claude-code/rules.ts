import { collectingCheck } from '../../rules/checkRecords';
import { checkClaude } from './claudeConformance';
import { claudeDocumentRecords, claudeLine } from './claudeRecords';
import { verifyClaude } from './claudeVerify';
import { RuleModule } from '../../rules/types';
import { CLAUDE_CATALOG } from './catalog';

/** Claude Code transcript verification (uuids, parents, cycles, summaries) and conformance (pairing, sidechains, schema). */
export const claudeCodeRules: RuleModule = {
  format: 'claude-code',
  rules: CLAUDE_CATALOG.rules,
  supersedes: ['tree/duplicate-id', 'tree/dangling-parent', 'tree/parent-elsewhere', 'tree/cycle', 'generic/time-backwards'],
  createVerifier: (ctx) => collectingCheck(ctx, (r, i) => claudeLine(r, i, false), (lines) => verifyClaude(ctx.path, lines), claudeDocumentRecords(ctx)),
  createChecker: (ctx) => collectingCheck(ctx, (r, i) => claudeLine(r, i, true), checkClaude, claudeDocumentRecords(ctx)),
};
