import { FlattenOptions, LeafPaths, plainKey, walkLeaves } from './flattenJson';
import type { FlatField } from './flattenJson';
import { TextHash } from './textHash';

/**
 * The paths of one walk as hash states: slot k holds the digest state of path k's text (`payload.args[0]`), made
 * from its parent's slot by adding the last step, so no path string is built and no prefix is hashed twice.
 */
class PathStates implements LeafPaths<number> {
  readonly root = 0;
  private states = new Int32Array(2 * 256);
  private used = 1;
  private readonly step = new TextHash();
  private readonly leafHash = new TextHash();
  private out = new TextHash();

  /** Starts a walk whose leaves go into `out`; slot 0 is the empty path of the root. */
  begin(out: TextHash): void {
    this.out = out;
    this.step.reset().saveTo(this.states, 0);
    this.used = 1;
  }

  key(parent: number, key: string): number {
    const h = this.step.loadFrom(this.states, parent);
    // The same text as flattenEvent's paths: `key` at the root, `.key` below it, `["a b"]` for other keys.
    if (!plainKey(key)) h.update('[').update(JSON.stringify(key)).update(']');
    else if (parent === this.root) h.update(key);
    else h.update('.').update(key);
    return this.keep(h);
  }

  index(parent: number, i: number): number {
    return this.keep(this.step.loadFrom(this.states, parent).update('[').updateUint(i).update(']'));
  }

  leaf(path: number, value: FlatField['value']): void {
    const h = this.leafHash.loadFrom(this.states, path);
    // A string with its length, so no value can pass for another or for a path.
    if (typeof value === 'string') h.update('=s').updateUint(value.length).update(':').update(value);
    else h.update('=').update(String(value));
    this.out.absorb(h);
  }

  private keep(h: TextHash): number {
    if (2 * this.used >= this.states.length) {
      const grown = new Int32Array(2 * this.states.length);
      grown.set(this.states);
      this.states = grown;
    }
    h.saveTo(this.states, this.used);
    return this.used++;
  }
}

// One walk at a time (the walk never calls back into hashing), so one set of slots serves every line.
const paths = new PathStates();

/**
 * Feeds an event's leaves in canonical order (see walkLeaves) into `hash`, each leaf as the digest of its path
 * and value: equal content, equal digest, whatever the key order; ids, times and hashes left out unless asked.
 */
export function hashCanonical(root: unknown, options: FlattenOptions, hash: TextHash): TextHash {
  paths.begin(hash);
  walkLeaves(root, options, paths);
  return hash;
}
