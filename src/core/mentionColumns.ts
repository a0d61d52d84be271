import type { IdMention } from './model';
import { NumberColumn } from './numberColumn';
import { StringColumn } from './stringColumn';
import type { Interner } from './tableColumns';

/**
 * The ids each event mentions besides its own and its parent's, in flat columns: event i owns entries
 * [start(i), start(i) + count(i)); each entry is a field name (interned) and the id's text.
 */
export class MentionColumns {
  private readonly start = new NumberColumn();
  private readonly count = new NumberColumn();
  private readonly field = new NumberColumn();
  private readonly ids = new StringColumn();

  constructor(private readonly strings: Interner) {}

  /** Records event i's mentions (at most 255: a longer list is cut, as a row never shows more). */
  add(i: number, mentions: readonly IdMention[] | undefined): void {
    const at = this.ids.size;
    this.start.set(i, at);
    const count = mentions ? Math.min(255, mentions.length) : 0;
    this.count.set(i, count);
    for (let k = 0; k < count; k++) {
      this.field.set(at + k, this.strings.id(mentions![k].field));
      this.ids.push(mentions![k].id);
    }
  }

  of(i: number): IdMention[] {
    const start = this.start.raw(i);
    const count = this.count.raw(i);
    const out: IdMention[] = [];
    for (let k = 0; k < count; k++) out.push({ field: this.strings.value(this.field.raw(start + k)) ?? '', id: this.ids.get(start + k) ?? '' });
    return out;
  }

  /** Bytes per part (for the memory breakdown). */
  footprint(): Record<string, number> {
    return { 'mentions.start': this.start.byteSize, 'mentions.count': this.count.byteSize, 'mentions.field': this.field.byteSize, 'mentions.ids': this.ids.byteSize };
  }

  trim(n: number): void {
    this.start.trim(n);
    this.count.trim(n);
    this.field.trim(this.ids.size);
    this.ids.trim();
  }
}
