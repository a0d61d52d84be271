import { ruleById } from '../core/formatRules';
import { ruleAnchor } from '../core/checks/rulesDoc';
import type { LoggedCheckResult } from '../core/checks/runChecks';
import { Severity } from '../core/model';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { LazyArray } from './jsonStream';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** Builds a SARIF 2.1.0 log of check results, one run, with each finding on its file and line. */
export function toSarif(results: LoggedCheckResult[], version: string): object {
  const seen = new Set<string>();
  for (const r of results) for (const f of r.findings) seen.add(f.rule);
  const ruleIds = [...seen].sort();
  const rules = ruleIds.map((id) => {
    const info = ruleById(id);
    return {
      id,
      shortDescription: { text: info?.summary ?? id },
      fullDescription: { text: info?.explanation ?? id },
      helpUri: `https://github.com/agent-trace-viewer/agent-trace-viewer/blob/main/docs/rules.md#${ruleAnchor(id)}`,
      defaultConfiguration: { level: LEVEL[info?.severity ?? 'warning'] },
    };
  });
  const index = new Map(ruleIds.map((id, i) => [id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'agent-trace', version, informationUri: 'https://github.com/agent-trace-viewer/agent-trace-viewer', rules } },
        results: new LazyArray(() => sarifResults(results, index)),
      },
    ],
  };
}

/** One SARIF result per finding, made as they are written. */
function* sarifResults(results: LoggedCheckResult[], index: Map<string, number>): Generator<object> {
  for (const r of results) {
    const uri = pathToFileURL(resolve(r.file)).href;
    for (const f of r.findings) {
      yield {
        ruleId: f.rule,
        ruleIndex: index.get(f.rule)!,
        level: LEVEL[f.severity],
        message: { text: f.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri },
              region: { startLine: Math.max(1, f.line) },
            },
          },
        ],
        ...(f.seq !== undefined || f.eventId !== undefined ? { properties: { ...(f.seq !== undefined ? { seq: f.seq } : {}), ...(f.eventId !== undefined ? { eventId: f.eventId } : {}) } } : {}),
      };
    }
  }
}
