/**
 * Keeps one object of a class alive for the life of the process, so that V8's hidden class ("map") for its
 * objects survives garbage collection.
 *
 * V8 reaches the map an object has after its constructor ran by transitions from the class's first map, and
 * those transitions hold it only weakly. When the last object of a class dies, a collection frees that map, and
 * every function optimized for it is thrown away ("weak objects" in `node --trace-deopt`) and has to warm up
 * again. Passes that run once per trace (the usage rollups, the tool-call pairing) make fresh objects each time,
 * so each one after a collection ran mostly unoptimized: the tool-call pairing of 200k murmur events took
 * 55-75 ms after a collection and 15-30 ms without one. One small object of each such class, made through the
 * same constructor, keeps the map.
 *
 * A map is also replaced when a field that held small integers (or null) is first given a fraction (a cost):
 * objects made after that get the new map, and the kept object, left with the old one, would no longer keep
 * theirs. So each number and null field of the kept object is given a fraction once, then its value back: its map
 * is already the one that holds any number.
 */
const kept: object[] = [];

/** Keeps `o` (a small object of a class whose objects are made per pass) alive, and returns it. */
export function keepShape<T extends object>(o: T): T {
  const fields = o as Record<string, unknown>;
  for (const k of Object.keys(fields)) {
    const v = fields[k];
    if (v !== null && v !== undefined && typeof v !== 'number') continue;
    fields[k] = 0.5;
    fields[k] = v;
  }
  kept.push(o);
  return o;
}
