import { dirname, join } from '../../io/paths';
import { FieldCheck } from './fieldChecks';
import { LifecycleCheck } from './lifecycle';
import { LineJsonCheck } from './lineJson';
import { LinkCheck } from './links';
import { ParentRulesCheck } from './parentRules';
import { MURMUR_RULES } from './ruleCatalog';
import { Segmenter, toCheckEvent } from './segments';
import { SequenceCheck } from './sequenceRules';
import { CheckContext, LineInput, RuleModule, StreamCheck } from '../../rules/types';
import { fileSystem } from '../../io/fileSystem';

/** True when a `blobs/` directory sits next to the trace (murmur.md §1.4: created only under content capture). */
function hasBlobDir(tracePath: string): boolean {
  try {
    return fileSystem().statSync(join(dirname(tracePath), 'blobs')).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The rules that replace the loader's generic parse and tree findings. The runner drops those generic findings
 * in both modes, so both the verifier and the checker report these, as the generic ones would have been.
 */
function structuralChecks(formats: boolean, ctx: CheckContext): { json: LineJsonCheck; links: LinkCheck } {
  return { json: new LineJsonCheck(), links: new LinkCheck(formats, { lines: ctx.model.lineCount, bytes: fileBytes(ctx.path) }) };
}

function fileBytes(path: string): number {
  try {
    return fileSystem().statSync(path).size;
  } catch {
    return 0;
  }
}

/** `agent-trace verify` for murmur: there is no hash chain, so integrity is the parent chain, ids and digest syntax (§5). */
function createMurmurVerifier(ctx: CheckContext): StreamCheck {
  const { json, links } = structuralChecks(true, ctx);
  return {
    add(input) {
      json.add(input);
      links.add(input);
    },
    finish: () => [...json.finish(), ...links.finish()],
  };
}

/** `agent-trace check` for murmur: schemas, parent rules, lifecycle, counters, order and capture mode (§4, §8). */
function createMurmurChecker(ctx: CheckContext): StreamCheck {
  const { json, links } = structuralChecks(false, ctx);
  const fields = new FieldCheck();
  const segmenter = new Segmenter();
  const lifecycle = new LifecycleCheck();
  // The parent and capture rules read the link check's store: its event numbers, ids and parents.
  const parents = new ParentRulesCheck(links.store);
  const sequence = new SequenceCheck(hasBlobDir(ctx.path), links.store);
  return {
    add(input) {
      json.add(input);
      const k = links.add(input);
      fields.add(input);
      const read = toCheckEvent(input);
      if (!read) return;
      const at = segmenter.place(read.ev);
      lifecycle.add(read.ev, read.o, at);
      parents.add(k, read.ev, read.o, at);
      sequence.add(k, read.ev, read.o);
    },
    finish: () => [...json.finish(), ...links.finish(), ...fields.finish(), ...lifecycle.finish(), ...parents.finish(), ...sequence.finish()],
  };
}

/** murmur's verifier and conformance rules (murmur.md §8). Blob existence and rehashing belong to the blob module. */
export const murmurRules: RuleModule = {
  format: 'murmur',
  rules: MURMUR_RULES,
  supersedes: ['parse/invalid-json', 'parse/torn-tail', 'tree/duplicate-id', 'tree/dangling-parent', 'tree/cycle', 'generic/time-backwards'],
  createVerifier: (ctx) => createMurmurVerifier(ctx),
  createChecker: (ctx) => createMurmurChecker(ctx),
};
