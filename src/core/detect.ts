import { FORMAT_LIST, FORMATS } from './formats';
import { SniffResult, SniffSample } from './format';
import type { Detection } from './traceModel';

export type { Detection };

/** Below this, a file opens as generic JSONL. */
export const MIN_CONFIDENCE = 0.5;

/** Detects a trace's format from its first values; file names only break ties (adapters add at most 0.05). */
export function detectFormat(sample: SniffSample): Detection {
  const scored = FORMAT_LIST.filter((a) => a !== FORMATS.generic)
    .map((a) => ({ adapter: a, result: safeSniff(() => a.sniff(sample)) }))
    .sort((x, y) => y.result.confidence - x.result.confidence);
  const candidates = scored.filter((s) => s.result.confidence > 0).map((s) => ({ format: s.adapter.name, confidence: round(s.result.confidence) }));
  const best = scored[0];
  if (best && best.result.confidence >= MIN_CONFIDENCE) {
    const dialect = best.result.dialect ? { dialect: best.result.dialect } : {};
    return { format: best.adapter.name, confidence: round(Math.min(1, best.result.confidence)), reason: best.result.reason, ...dialect, candidates };
  }
  return {
    format: 'generic',
    confidence: sample.values.length > 0 ? 0.5 : 0,
    reason: sample.values.length > 0 ? 'no runtime format matched; reading as generic JSONL' : 'no JSON values in the file',
    candidates,
  };
}

function safeSniff(f: () => SniffResult): SniffResult {
  try {
    return f();
  } catch {
    return { confidence: 0, reason: 'detector failed' };
  }
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
