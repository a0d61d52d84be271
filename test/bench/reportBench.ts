// `agent-trace report` of the smallest trace (issue 42, part 3): what the page weighs when the trace adds next to nothing,
// i.e. what the viewer's bundle costs, part by part. A figure, never asserted. Reads the built dist/ (`npm run bench`
// builds first), as the CLI does.
import '../../src/node/register'; // the core reads through the Node file system
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import { buildReport, readReportAssets } from '../../src/report/buildReport';

const ROOT = join(__dirname, '..', '..');
const SMALLEST = join(ROOT, 'test', 'fixtures', 'agentledger', 'rust-doc-trace.jsonl');

const kb = (n: number): string => `${(n / 1024).toFixed(0)} KB`;

export async function runBench(): Promise<void> {
  const assets = readReportAssets(join(ROOT, 'dist'));
  const model = await loadTrace(SMALLEST);
  const { html } = await buildReport(model, assets, { generator: 'bench', now: new Date(0) });
  const inline = [...html.matchAll(/<(script|style)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => m[2].length);
  const link = /<link rel="stylesheet"[^>]*>/.exec(html)?.[0].length ?? 0;
  console.log(`report: the smallest trace (${model.events.size} events, ${model.bytesIndexed} bytes)`);
  console.log(`  page ${kb(Buffer.byteLength(html))} (${Buffer.byteLength(html)} bytes)`);
  console.log(`  of which: report host (core, formats, viewer session) ${kb(assets.reportHostJs.length)}, viewer page script ${kb(assets.webviewJs.length)}, its styles ${kb(assets.webviewCss.length)}, codicon font and classes ${kb(inline[1] + link)}, inline parts in all ${kb(inline.reduce((a, b) => a + b, 0) + link)}`);
}
