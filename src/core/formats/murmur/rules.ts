import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Finding } from '../../model';
import { FieldCheck } from './fieldChecks';
import { LifecycleCheck } from './lifecycle';
import { LineJsonCheck } from './lineJson';
import { LinkCheck } from './links';
import { ParentRulesCheck } from './parentRules';
import { MURMUR_RULES } from './ruleCatalog';
import { Segmenter, toCheckEvent } from './segments';
import { SequenceCheck } from './sequenceRules';
import { CheckContext, LineInput, RuleModule, StreamCheck } from '../../checks/types';

/** True when a `blobs/` directory sits next to the trace (murmur.md §1.4: created only under content capture). */
function hasBlobDir(tracePath: string): boolean {
  try {
    return statSync(join(dirname(tracePath), 'blobs')).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The rules that replace the loader's generic parse and tree findings. The runner drops those generic findings
 * in both modes, so both the verifier and the checker report these, as the generic ones would have been.
 */
function structuralChecks(formats: boolean): { add(input: LineInput): void; finish(): Finding[] }[] {
  return [new LineJsonCheck(), new LinkCheck(formats)];
}

/** `agent-trace verify` for murmur: there is no hash chain, so integrity is the parent chain, ids and digest syntax (§5). */
function createMurmurVerifier(): StreamCheck {
  const checks = structuralChecks(true);
  return {
    add: (input) => checks.forEach((c) => c.add(input)),
    finish: () => checks.flatMap((c) => c.finish()),
  };
}

/** `agent-trace check` for murmur: schemas, parent rules, lifecycle, counters, order and capture mode (§4, §8). */
function createMurmurChecker(ctx: CheckContext): StreamCheck {
  const structural = structuralChecks(false);
  const fields = new FieldCheck();
  const segmenter = new Segmenter();
  const lifecycle = new LifecycleCheck();
  const parents = new ParentRulesCheck();
  const sequence = new SequenceCheck(hasBlobDir(ctx.path));
  return {
    add(input) {
      structural.forEach((c) => c.add(input));
      fields.add(input);
      const read = toCheckEvent(input);
      if (!read) return;
      const at = segmenter.place(read.ev);
      lifecycle.add(read.ev, read.o, at);
      parents.add(read.ev, read.o, at);
      sequence.add(read.ev, read.o);
    },
    finish: () => [...structural.flatMap((c) => c.finish()), ...fields.finish(), ...lifecycle.finish(), ...parents.finish(), ...sequence.finish()],
  };
}

/** murmur's verifier and conformance rules (murmur.md §8). Blob existence and rehashing belong to the blob module. */
export const murmurRules: RuleModule = {
  format: 'murmur',
  rules: MURMUR_RULES,
  supersedes: ['parse/invalid-json', 'parse/torn-tail', 'tree/duplicate-id', 'tree/dangling-parent', 'tree/cycle', 'generic/time-backwards'],
  createVerifier: () => createMurmurVerifier(),
  createChecker: (ctx) => createMurmurChecker(ctx),
};
