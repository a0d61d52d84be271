import { checkOtlp, spanConformanceFindings } from './otlpConformance';
import { collectingCheck } from '../../rules/checkRecords';
import { otlpDigester, otlpDocumentRecords } from './otlpRecords';
import { spanIdFindings, verifyOtlp } from './otlpVerify';
import { RuleModule } from '../../rules/types';
import { OTLP_CATALOG } from './catalog';

/** OTLP/JSON verification (shape, ids, parents) and conformance (times, kinds, attribute values, status). */
export const otlpRules: RuleModule = {
  format: 'otlp',
  rules: OTLP_CATALOG.rules,
  supersedes: ['tree/duplicate-id', 'tree/dangling-parent', 'tree/cycle', 'generic/time-backwards'],
  createVerifier: (ctx) => collectingCheck(ctx, otlpDigester(ctx, spanIdFindings), verifyOtlp, otlpDocumentRecords),
  createChecker: (ctx) => collectingCheck(ctx, otlpDigester(ctx, spanConformanceFindings), checkOtlp, otlpDocumentRecords),
};
