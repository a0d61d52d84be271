import { checkCodex, codexLine, verifyCodex } from './codexChecks';
import { collectingCheck, eventLine } from '../../rules/checkRecords';
import { CheckContext, RuleModule } from '../../rules/types';
import { CODEX_CATALOG } from './catalog';

/** Rollouts are JSONL; a document forced into this format is read element by element at its events' lines. */
function documentRecords(ctx: CheckContext) {
  return (doc: unknown) => (Array.isArray(doc) ? doc : [doc]).map((value, i) => ({ value, line: eventLine(ctx, i) }));
}

/** Codex rollout verification (line shape, session header) and conformance (pairing, arguments, schemas). */
export const codexRules: RuleModule = {
  format: 'codex',
  rules: CODEX_CATALOG.rules,
  supersedes: ['generic/time-backwards'],
  createVerifier: (ctx) => collectingCheck(ctx, (r) => codexLine(r, false), (lines) => verifyCodex(ctx.path, lines), documentRecords(ctx)),
  createChecker: (ctx) => collectingCheck(ctx, (r) => codexLine(r, true), checkCodex, documentRecords(ctx)),
};
