/**
 * Validates every message from a webview before the host acts on it: the webviews render hostile trace
 * content, so their messages are treated as untrusted input (shape, types, bounds). One zod schema per view
 * (the trace viewer, the compare view, the usage view) and one entry, {@link parseViewMessage}, for every host that listens:
 * the custom editor, the compare panel, the offline report and the test harnesses.
 */
import * as z from 'zod';
import { CHECK_MODES } from '../core/catalog/checkMode';
import { MAX_COMPARE_PAGE, type CompareViewMessage } from './compare';
import type { WebviewMessage } from './index';
import { USAGE_PERIODS, USAGE_RANGES, USAGE_SERIES, type UsageViewMessage } from './usage';

const int = z.number().int();
const line = int.min(1).max(2 ** 31);
const node = int.min(-(2 ** 31)).max(2 ** 31);
const filter = z.object({
  kinds: z.array(z.string().max(500)).max(10_000),
  status: z.enum(['all', 'problems', 'errors']),
  expr: z.string().max(10_000).optional(),
});
const algorithm = z.enum(['sha256', 'fnv1a64']);
const digest = z.string().regex(/^[0-9a-f]{16,64}$/);
const persisted = z.object({
  selectedLine: line.nullable(),
  topLine: line.nullable(),
  expandedLines: z.array(line).max(100_000).nullable(),
  expandedAll: z.boolean(),
  detailTab: z.enum(['content', 'json', 'raw']),
  splitPosition: z.string().max(32).nullable(),
  findQuery: z.string().max(1000),
  filter,
  showChecks: z.boolean(),
  contentRaw: z.boolean(),
  compactChains: z.boolean().nullable().optional(),
  showBookkeeping: z.boolean().nullable().optional(),
  eventColumnWidth: int.min(40).max(100_000).nullable().optional(),
});

const schema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), state: persisted.nullable().catch(null) }),
  z.object({ type: z.literal('requestRows'), rowsVersion: int, start: int.min(0), count: int.min(0).max(100_000) }),
  z.object({ type: z.literal('rowsShown'), modelVersion: int }),
  z.object({ type: z.literal('toggle'), node, expand: z.boolean().optional(), recursive: z.boolean().optional() }),
  z.object({ type: z.literal('setCompactChains'), compact: z.boolean() }),
  z.object({ type: z.literal('setShowBookkeeping'), show: z.boolean() }),
  z.object({ type: z.literal('layoutChanged'), layout: z.object({ splitPosition: z.string().regex(/^\d{1,3}(\.\d)?%$/).nullable(), eventColumnWidth: int.min(40).max(100_000).nullable() }) }),
  z.object({ type: z.literal('expandAll') }),
  z.object({ type: z.literal('collapseAll') }),
  z.object({ type: z.literal('select'), node }),
  z.object({ type: z.literal('revealNode'), node, select: z.boolean() }),
  z.object({ type: z.literal('revealLine'), line }),
  z.object({ type: z.literal('find'), query: z.string().max(1000), caseSensitive: z.boolean(), regex: z.boolean().optional() }),
  z.object({ type: z.literal('findStep'), direction: z.union([z.literal(1), z.literal(-1)]) }),
  z.object({ type: z.literal('setFilter'), filter }),
  z.object({ type: z.literal('viewport'), topLine: line.nullable() }),
  z.object({ type: z.literal('revealInTextEditor'), line, file: int.min(1).max(100_000).optional() }),
  z.object({ type: z.literal('copy'), text: z.string().max(64 << 20) }),
  z.object({ type: z.literal('openExternal'), url: z.string().max(8192) }),
  z.object({ type: z.literal('runChecks'), mode: z.enum(CHECK_MODES) }),
  z.object({ type: z.literal('resolveId'), requestId: int, id: z.string().max(4096) }),
  z.object({ type: z.literal('requestBlob'), requestId: int, digest, algorithm }),
  z.object({ type: z.literal('openBlob'), digest, algorithm }),
  z.object({ type: z.literal('reload'), ignoreSizeLimit: z.boolean().optional() }),
  z.object({ type: z.literal('openAsText') }),
  z.object({ type: z.literal('openSessionFile'), index: int.min(1).max(100_000) }),
  z.object({ type: z.literal('openOriginFile') }),
  z.object({ type: z.literal('requestTranscript'), requestId: int, start: int.min(0), count: int.min(0).max(1000), aroundNode: node.optional() }),
  z.object({ type: z.literal('requestEarlierMessages'), requestId: int, node }),
  z.object({ type: z.literal('requestTimeline'), requestId: int, start: int.min(0).max(2 ** 31), count: int.min(0).max(100_000), node: node.nullable().optional(), density: int.min(1).max(4096).optional(), collapsed: z.array(node).max(100_000).optional() }),
  z.object({ type: z.literal('requestStatistics') }),
]);

/** The compare view's messages; a row, a generation and a page start are whole numbers in the same bounds as a line. */
const whole = int.min(0).max(2 ** 31);
const compareSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('compareReady') }),
  z.object({ type: z.literal('compareRows'), generation: whole, from: whole, count: int.min(1).max(MAX_COMPARE_PAGE) }),
  z.object({ type: z.literal('compareSelect'), row: whole }),
  z.object({ type: z.literal('compareToggleVolatile'), include: z.boolean() }),
  z.object({ type: z.literal('compareShowBookkeeping'), show: z.boolean() }),
  z.object({ type: z.literal('compareOpen'), side: z.enum(['a', 'b']), line }),
]);

/** The Agent Usage view's messages (webview/usage/). */
const usageQuery = z.object({ by: z.enum(USAGE_PERIODS), split: z.enum(USAGE_SERIES), since: z.enum(USAGE_RANGES) });
const usageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('usageReady'), query: usageQuery.nullable().catch(null) }),
  z.object({ type: z.literal('usageQuery'), query: usageQuery }),
  z.object({ type: z.literal('usageExportCsv'), query: usageQuery }),
  z.object({ type: z.literal('usageRefresh') }),
]);

/** True when A and B are assignable both ways: a message added, dropped or changed on one side only is false. */
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Fails to compile when a schema and its protocol union drift apart, in either direction.
const schemaMatchesProtocol: SameShape<z.infer<typeof schema>, WebviewMessage> = true;
const compareSchemaMatchesProtocol: SameShape<z.infer<typeof compareSchema>, CompareViewMessage> = true;
void schemaMatchesProtocol;
void compareSchemaMatchesProtocol;
const usageSchemaMatchesProtocol: SameShape<z.infer<typeof usageSchema>, UsageViewMessage> = true;
void usageSchemaMatchesProtocol;

/** The views that send messages to the host, and what each sends. */
export interface ViewMessages {
  /** The trace viewer (webview/app.ts; also the offline report). */
  viewer: WebviewMessage;
  /** The compare view (webview/compare/). */
  compare: CompareViewMessage;
  /** The Agent Usage view (webview/usage/). */
  usage: UsageViewMessage;
}
export type ViewName = keyof ViewMessages;

const SCHEMAS: { [V in ViewName]: z.ZodType<ViewMessages[V]> } = { viewer: schema, compare: compareSchema, usage: usageSchema };

/** A message from `view` if it is exactly one of that view's known shapes, else null (and the host ignores it). */
export function parseViewMessage<V extends ViewName>(view: V, raw: unknown): ViewMessages[V] | null {
  const r = SCHEMAS[view].safeParse(raw);
  return r.success ? r.data : null;
}

/** True for links the host may hand to the browser: http and https only. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
