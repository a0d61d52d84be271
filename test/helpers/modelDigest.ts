import type { TraceModel } from '../../src/core/traceModel';

/**
 * Everything a model says, as plain data, so two reads of the same bytes (one read, or a read followed by
 * appends, or 1 worker against N) can be compared with one deepStrictEqual.
 */
export function modelDigest(model: TraceModel): Record<string, unknown> {
  const events = [];
  for (let i = 0; i < model.events.size; i++) events.push({ ...model.events.get(i), link: model.events.linkOf(i), depth: model.tree.depth(i), children: [...model.tree.children(i)] });
  return {
    format: model.format, detection: model.detection, events, roots: [...model.tree.roots], diagnostics: model.diagnostics, malformed: model.malformed,
    lineCount: model.lineCount, blankLines: model.blankLines, bytesIndexed: model.bytesIndexed, bom: model.bom, crlf: model.crlf,
    formatTotals: model.formatTotals, kinds: model.events.kinds(),
  };
}
