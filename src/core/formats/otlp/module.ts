import type { FormatModule } from '../../format';
import { otlpAdapter } from './adapter';
import { otlpRules } from './rules';
import { otlpSourceSpans } from './otlpSourceSpans';

/** The otlp format: detection, reading, rules and what its verification proves. */
export const otlpFormat: FormatModule = {
  ...otlpAdapter,
  groupNoun: 'run',
  eventTime: 'start',
  // the `.otlp.json` / `.otlp.jsonl` suffixes name OTLP/JSON exports.
  fileNamePatterns: ['*.otlp.json', '*.otlp.jsonl'],
  rules: otlpRules,
  sourceSpans: otlpSourceSpans,
  verificationScope:
    'OTLP/JSON has no hash chain: proves span and trace id formats, unique ids and parents without cycles, nothing about the content.',
};
