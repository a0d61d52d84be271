// Deliberately broken copies for the verification demo: a lumen line edited after it was hashed, and a murmur
// session whose blob has one byte changed. Each says where it is broken, for samples/README.md.
import { SampleFile } from './common';

/** A tampered copy and the sentence that tells where it breaks. */
export interface Tampered {
  files: SampleFile[];
  note: string;
}

const text = (f: SampleFile): string => (typeof f.data === 'string' ? f.data : f.data.toString('utf8'));

/**
 * Copies the lumen trace and flips `details.success` of the failed `fs.read` from false to true, keeping the
 * stored hash: a forger hiding the failure. Verification must report `lumen/event-hash` on that line only.
 */
export function tamperLumen(lumen: SampleFile[]): Tampered {
  const trace = lumen.find((f) => f.path.endsWith('.jsonl'))!;
  const lines = text(trace).split('\n');
  const index = lines.findIndex((l) => l.includes('"kind":"tool_call"') && l.includes('"details":{"success":false}'));
  if (index < 0) throw new Error('tamperLumen: no failed tool_call line');
  lines[index] = lines[index].replace('"details":{"success":false}', '"details":{"success":true}');
  const seq = (JSON.parse(lines[index]) as { seq: number }).seq;
  const path = `tampered/${trace.path}`;
  return {
    files: [{ path, data: lines.join('\n') }],
    note: `\`${path}\`: line ${index + 1} (seq ${seq}, the failed \`fs.read\`) had \`details.success\` changed from false to true after hashing; verify reports \`lumen/event-hash\` there, and nothing else.`,
  };
}

/**
 * Copies the murmur session and changes one byte of the blob that holds the tool result of reading
 * src/greeting.js (`Hello` → `Jello`). The file keeps its old name, so it no longer hashes to it.
 */
export function tamperMurmur(murmur: SampleFile[]): Tampered {
  const target = murmur.find((f) => f.path.includes('/blobs/') && text(f).includes('"tool_result"') && text(f).includes('export function formatGreeting(name) {\\n  return `<p>Hello'));
  if (!target) throw new Error('tamperMurmur: no source-read tool result blob');
  const sha = target.path.slice(target.path.lastIndexOf('/') + 1);
  const trace = murmur.find((f) => f.path.endsWith('/trace.jsonl'))!;
  const refLines = text(trace).split('\n').flatMap((l, i) => (l.includes(sha) ? [i + 1] : []));
  const files = murmur.map((f) => ({ path: `tampered/${f.path}`, data: f === target ? text(f).replace('<p>Hello', '<p>Jello') : f.data }));
  const dir = trace.path.slice(0, trace.path.lastIndexOf('/'));
  return {
    files,
    note: `\`tampered/${dir}/\`: blob \`blobs/${sha}\` (the tool result of reading src/greeting.js) had one byte changed (\`Hello\` → \`Jello\`); verify reports \`blob/mismatch\` (murmur.md's \`murmur/blob-integrity\`) on the trace lines that reference it (${refLines.join(', ')}). The trace lines themselves are untouched.`,
  };
}
