import { readText } from '../../byteSource';
import { tracePathToOpen } from '../../tracePath';
import { isObj, Obj } from '../common';
import { DsRecord, readDsRecord } from './records';
import { Finding } from '../../model';
import { DEEPSTRIKE_CATALOG, DeepstrikeRuleId, DEEPSTRIKE_RULES } from './catalog';
import { JournalVerifier } from './journalChecks';
import { DsRunMachine } from './runMachine';
import { checkDsEventShape, llmDialect } from './shapes';
import { CheckContext, LineInput, linesWithRules, RuleModule, StreamCheck } from '../../rules/types';

/** A check over DeepStrike records: gets each parsed record with its line, then reports. */
interface RecordCheck {
  record(ds: DsRecord, input: LineInput): void;
  finish(): Finding[] | Promise<Finding[]>;
}

/**
 * Adapts a record check to the runner. JSONL lines arrive through `add`; a JSON array document (`*.events.json`)
 * is not streamed by the runner, so it is read here and its elements get the lines the adapter gave their events.
 */
function streamOf(ctx: CheckContext, check: RecordCheck): StreamCheck {
  const torn = linesWithRules(ctx.model.diagnostics, ['parse/torn-tail']);
  const lineFindings: Finding[] = [];
  const add = (input: LineInput) => {
    if (input.blank) return;
    const f = (message: string) => lineFindings.push(DEEPSTRIKE_CATALOG.finding('deepstrike/line-json', input.line, message));
    if (input.value === undefined) {
      if (torn.has(input.line)) lineFindings.push(DEEPSTRIKE_CATALOG.overridden('deepstrike/line-json', input.line, 'torn tail: the last line has no newline and is not complete JSON'));
      else f('line is not valid JSON');
      return;
    }
    const ds = readDsRecord(input.value);
    if (!ds) {
      f(isObj(input.value) ? 'line is a JSON object but not a DeepStrike record ({seq, event}, a bare event, or a journal record)' : `line is a JSON ${Array.isArray(input.value) ? 'array' : typeof input.value}, not an object`);
      return;
    }
    check.record(ds, input);
  };
  return {
    // A document is read whole in finish(); lines streamed for it (if a runner ever did) would be read twice.
    add: (input) => (ctx.model.document ? undefined : add(input)),
    async finish() {
      if (ctx.model.document) for (const input of await documentInputs(ctx)) add(input);
      return [...lineFindings, ...(await check.finish())];
    },
  };
}

/** The elements of a JSON document as line inputs, placed on their events' lines (one event per element). */
async function documentInputs(ctx: CheckContext): Promise<LineInput[]> {
  let value: unknown;
  try {
    value = JSON.parse((await readText(tracePathToOpen(ctx.model))) ?? '');
  } catch {
    return [];
  }
  const items = Array.isArray(value) ? value : [value];
  const t = ctx.model.events;
  return items.map((v, i) => ({ line: i < t.size ? t.lineOf(i) : 1, text: JSON.stringify(v), value: v, blank: false }));
}

function sessionSeq(ds: DsRecord): number | undefined {
  return ds.form === 'session' && typeof ds.seq === 'number' && Number.isInteger(ds.seq) && ds.seq >= 0 ? ds.seq : undefined;
}

/** Integrity: record keys and seq density of session logs; the hash chain of kernel journals (§8). */
function createVerifier(ctx: CheckContext): StreamCheck {
  const out: Finding[] = [];
  const journal = new JournalVerifier(ctx.path);
  let nextSeq = 0;
  return streamOf(ctx, {
    record(ds, input) {
      if (ds.form === 'rec' || ds.form === 'kernel') return journal.add(ds.form === 'rec' ? ds.rec : null, ds.form === 'kernel' ? ds.record : null, input.line);
      if (ds.form !== 'session') return;
      const seq = sessionSeq(ds);
      const f = (rule: DeepstrikeRuleId, message: string) => out.push(DEEPSTRIKE_CATALOG.finding(rule, input.line, message, { seq }));
      const v = input.value as Obj;
      const extra = Object.keys(v).filter((k) => k !== 'seq' && k !== 'event');
      if (extra.length > 0) f('deepstrike/record-keys', `unexpected key${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')}: a record has exactly seq and event`);
      if (seq === undefined) f('deepstrike/record-keys', `seq is ${JSON.stringify(v.seq)}, expected a non-negative integer`);
      if (!ds.event) f('deepstrike/record-keys', 'event is not an object');
      else if (ds.kind === null) f('deepstrike/record-keys', 'event has no string kind');
      if (seq === undefined) return;
      if (seq !== nextSeq) f('deepstrike/seq-dense', `seq ${seq}, expected ${nextSeq} (${seq > nextSeq ? `gap of ${seq - nextSeq}` : 'repeated or out of order'})`);
      if (seq >= nextSeq) nextSeq = seq + 1;
    },
    async finish() {
      const chain = await journal.finish();
      return [...out, ...chain];
    },
  });
}

/** Conformance: per-event shapes of both dialects and the §7 run state machine. */
function createChecker(ctx: CheckContext): StreamCheck {
  const out: Finding[] = [];
  const machine = new DsRunMachine();
  let dialect: 'core' | 'sdk' | null = null;
  return streamOf(ctx, {
    record(ds, input) {
      if (ds.form !== 'session' && ds.form !== 'bare') return;
      if (!ds.event || ds.kind === null) return;
      const seq = sessionSeq(ds);
      if (ds.kind === 'llm_completed') dialect = llmDialect(ds.event) ?? dialect;
      for (const i of checkDsEventShape(ds.kind, ds.event, dialect)) out.push({ ...i, line: input.line, seq });
      machine.add(ds.kind, ds.event, seq, input.line);
    },
    finish: () => [...out, ...machine.finish()],
  });
}

/** DeepStrike verification and conformance rules (format doc §11). */
export const deepstrikeRules: RuleModule = {
  format: 'deepstrike',
  rules: DEEPSTRIKE_RULES,
  supersedes: ['parse/invalid-json', 'parse/torn-tail'],
  createVerifier,
  createChecker,
};
