import { Finding } from '../model';
import { GENERIC_CATALOG, PARSE_CATALOG, TREE_CATALOG } from '../catalog/genericCatalog';
import { usageMismatches } from '../usage/usageChecks';
import { CheckMode, RuleInfo, RuleModule } from '../rules/types';

/** Rules every format gets from reading and tree building (parse and tree findings of the loader), then the generic checks. */
export const GENERIC_RULES: RuleInfo[] = [...PARSE_CATALOG.rules, ...TREE_CATALOG.rules, ...GENERIC_CATALOG.rules];

/**
 * Whether a finding the loader made is reported in `mode`, on the generic rules. Format modules may supersede
 * some of them (see {@link RuleModule}), in which case the runner drops those.
 */
export function loaderFinding(mode: CheckMode): (d: Finding) => boolean {
  const verifyIds = new Set(GENERIC_RULES.filter((r) => r.mode === 'verify').map((r) => r.id));
  // Both modes report what the reader saw: a check of an unreadable line is as broken as its verification.
  return (d) => verifyIds.has(d.rule) && (mode === 'verify' || d.rule.startsWith('parse/') || d.rule.startsWith('tree/'));
}

/** Generic conformance: timestamps going backwards (per run/session), usage that does not add up to the file's totals. */
export const genericRules: RuleModule = {
  format: 'generic',
  rules: GENERIC_RULES,
  createChecker(ctx) {
    const t = ctx.model.events;
    return {
      add() {},
      finish() {
        const out: Finding[] = [];
        const last = new Map<string, { time: number; line: number }>();
        for (let i = 0; i < t.size; i++) {
          const time = t.timeOf(i);
          if (time === null) continue;
          const g = t.groupOf(i) ?? '';
          const prev = last.get(g);
          if (prev && time < prev.time && t.lineOf(i) !== prev.line) {
            out.push(GENERIC_CATALOG.finding('generic/time-backwards', t.lineOf(i),
              `Timestamp ${new Date(time).toISOString()} is earlier than ${new Date(prev.time).toISOString()} on line ${prev.line}.`,
              { seq: t.seqOf(i) ?? undefined, eventId: t.id(i) ?? undefined }));
          }
          // The group's previous time, kept in one record per group (not a new one per event). Each event is held
          // to the one before it, not to the latest time so far: one edited timestamp (a far-future one) is one
          // finding where time goes back, not one on every later line.
          if (!prev) last.set(g, { time, line: t.lineOf(i) });
          else {
            prev.time = time;
            prev.line = t.lineOf(i);
          }
        }
        // Usage totals need the tree; a streamed run has no model and runs only when no event reports usage.
        for (const m of ctx.traceModel ? usageMismatches(ctx.traceModel) : []) {
          out.push(GENERIC_CATALOG.finding('generic/usage-totals', m.line, m.message, { seq: t.seqOf(m.index) ?? undefined, eventId: t.id(m.index) ?? undefined }));
        }
        return out;
      },
    };
  },
};
