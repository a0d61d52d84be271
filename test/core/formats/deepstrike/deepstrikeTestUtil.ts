import { join, resolve } from 'node:path';
import { corpusLines, jsonl, writeTemp } from '../harness-ledger/harnessTestUtil';
import { corpusPath } from '../../../helpers/corpus';

export { brief, checkFile, jsonl, treeOf, writeTemp } from '../harness-ledger/harnessTestUtil';

/** The DeepStrike corpus folder (tests run with cwd = project root). */
export const DS_CORPUS = corpusPath('deepstrike');

/** Path of a DeepStrike corpus file, e.g. `selfharness/passing.events.jsonl`. */
export function dsCorpus(name: string): string {
  return join(DS_CORPUS, name);
}

export const SDK_PY = 'sdk-python/5ce9abd6-7731-43aa-8c84-1e53d53666dd.jsonl';
export const CORE_A = 'rust-core/97a2f782-238c-40a6-ae04-c4e2efb8f844.jsonl';
export const CORE_B = 'rust-core/ccd8d4a8-c278-48af-86c4-31f0f447b767.jsonl';

export type DsLine = { seq: any; event: Record<string, any> } & Record<string, any>;

/** A corpus session log as editable `{seq, event}` objects. */
export function dsEditable(name: string) {
  const lines = corpusLines(dsCorpus(name)).map((l) => JSON.parse(l) as DsLine);
  const write = (file: string) => writeTemp(file, jsonl(lines.map((l) => JSON.stringify(l))));
  const renumber = () => lines.forEach((l, i) => (l.seq = i));
  return { lines, ev: (i: number) => lines[i].event, write, renumber };
}
