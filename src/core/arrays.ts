/**
 * Appends every item of `items` to `target`. `target.push(...items)` passes items as call arguments and
 * overflows the stack past about 100,000 of them, which a file full of findings reaches.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i]);
}
