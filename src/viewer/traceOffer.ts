/**
 * Whether to offer the viewer for a file opened as text: a `.jsonl`, `.ndjson` or `.json` file that the viewer does
 * not open by its name (no format's `fileNamePatterns`, no generic default pattern) and whose head the one sniffer
 * (`core/detectFile.ts`, what the CLI and the session catalog use) names as a runtime's format with confidence. A
 * Claude Code transcript copied out of `~/.claude`, a harness ledger sample, Codex `exec --json` output, OTLP JSON
 * Lines, a deepstrike file outside `.sessions/`. Generic JSONL (any JSON lines) is never offered. vscode-free.
 */
import { detectFile, isConfidentTrace } from '../core/detectFile';
import { formatModule } from '../core/formats';
import type { FormatName } from '../core/model';
import { globRegExp } from '../core/sessions/agentHomes';
import { VIEWER_DEFAULT_PATTERNS } from '../core/traceFiles';

/** A format the viewer is offered for. */
export interface TraceOffer {
  format: FormatName;
  /** The format's title, for the notification. */
  title: string;
}

/** Names the text editor may be showing a trace under (a `.gz` is never shown as text). */
const OFFER_NAMES = /\.(jsonl|ndjson|json)$/i;

const DEFAULT_PATTERNS = VIEWER_DEFAULT_PATTERNS.map((glob) => ({ re: globRegExp(glob), baseOnly: !glob.includes('/') }));

/** Whether the viewer opens `path` by default, by its name (package.json's customEditors, the same patterns). */
export function opensInViewerByName(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  const base = p.slice(p.lastIndexOf('/') + 1);
  return DEFAULT_PATTERNS.some((d) => d.re.test(d.baseOnly ? base : p));
}

/**
 * The format to offer the viewer for, or null: not a JSON name, opened by the viewer by its name already (the user
 * chose text), not a named format with confidence (generic JSONL, a settings file), or unreadable.
 */
export async function traceOfferFor(path: string): Promise<TraceOffer | null> {
  if (!OFFER_NAMES.test(path) || opensInViewerByName(path)) return null;
  const detection = await detectFile(path).catch(() => null);
  if (!detection || !isConfidentTrace(detection)) return null;
  return { format: detection.format, title: formatModule(detection.format).title };
}
