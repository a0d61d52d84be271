// A growing session followed across listings (the Agent Traces view's worker): the first growth reads the file whole
// and keeps its reader; each later growth reads only the new bytes, gives the same figures as a whole read, and adds
// the new lines' documents to the search index (none twice); when it stops growing it is read whole once more, and
// its verdict made. A file rewritten in place is read whole. On a Claude Code session of the real-writer corpus.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { layOutAgentHome, HomeFile } from '../../helpers/agentHome';
import { tempDir } from '../../helpers/tmp';
import { agentHomeRoots } from '../../../src/core/sessions/agentHomes';
import { listSessions, type ListSessionsOptions } from '../../../src/core/sessions/sessionCatalog';
import { SessionFollower } from '../../../src/core/sessions/sessionFollower';
import type { SessionCacheStore, SessionRecord } from '../../../src/core/sessions/sessionCache';
import { fileSystem, setFileSystem, type FileSystem, type OpenFile } from '../../../src/core/io/fileSystem';
import { openSearchIndex } from '../../../src/node/searchIndex';

function memoryCache(): SessionCacheStore {
  let text: string | null = null;
  return { read: async () => text, write: async (t) => void (text = t) };
}

/** Bytes of `file` read through the core's file system (every read of a trace goes through it) while `f` runs. */
async function bytesReadOf<T>(file: string, f: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  const real = fileSystem();
  let bytes = 0;
  const counted = (h: OpenFile): OpenFile => ({
    read: async (...a) => {
      const r = await h.read(...a);
      bytes += r.bytesRead;
      return r;
    },
    readSync: (...a) => {
      const n = h.readSync(...a);
      bytes += n;
      return n;
    },
    stat: () => h.stat(),
    close: () => h.close(),
  });
  setFileSystem(new Proxy(real, {
    get(target, name: keyof FileSystem) {
      const v = target[name] as unknown;
      if (typeof v !== 'function') return v;
      if (name === 'open') return async (p: unknown, ...rest: unknown[]) => {
        const h = await (v as (...a: unknown[]) => Promise<OpenFile>).call(target, p, ...rest);
        return String(p) === file ? counted(h) : h;
      };
      if (name === 'readFile') return async (p: unknown) => {
        const b = await target.readFile(p as string);
        if (String(p) === file) bytes += b.length;
        return b;
      };
      if (name === 'readSync') return (p: unknown, ...rest: unknown[]) => {
        const n = (v as (...a: unknown[]) => number).call(target, p, ...rest);
        if (String(p) === file) bytes += n;
        return n;
      };
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  }));
  try {
    return { result: await f(), bytes };
  } finally {
    setFileSystem(real);
  }
}

/** What a row shows of a session: its figures, not how they were read. */
const figures = (r: SessionRecord) => ({ entry: r.entry, byModel: r.byModel, byDayModel: r.byDayModel, priced: r.priced, parts: r.parts.map((p) => p.path) });

describe('a growing session followed across listings', function () {
  this.timeout(120_000);
  let home: string;
  let files: HomeFile[];
  let roots: string[];
  let claude: string;
  let lines: string[];

  beforeEach(() => {
    home = tempDir('atv-follow-home-');
    files = layOutAgentHome(home);
    roots = agentHomeRoots(home);
    claude = files.find((f) => f.tool === 'claude-code' && /[0-9a-f-]{36}\.jsonl$/.test(f.path) && fs.readFileSync(f.path, 'utf8').includes('then try to read missing.txt'))!.path;
    lines = fs.readFileSync(claude, 'utf8').split('\n').filter((l) => l !== '');
  });

  /** A user prompt line the agent could have written next, with its own uuid, chained to the last line. */
  const prompt = (text: string, uuid: string): string => {
    const p = JSON.parse(lines.find((l) => l.includes('then try to read missing.txt') && l.includes('"type":"user"'))!);
    p.message.content = typeof p.message.content === 'string' ? text : [{ type: 'text', text }];
    p.uuid = uuid;
    p.parentUuid = JSON.parse(fs.readFileSync(claude, 'utf8').trim().split('\n').pop()!).uuid ?? null;
    return JSON.stringify(p) + '\n';
  };

  it('reads a followed file\'s new bytes only, with the figures of a whole read, and indexes its new lines once', async () => {
    const index = openSearchIndex(null);
    const cache = memoryCache();
    const follow = new SessionFollower();
    const options: ListSessionsOptions = { roots, cache, follow, watchRead: index.watchRead };
    const first = await listSessions(options);
    assert.equal(first.appended, 0);
    assert.equal(follow.size, 0, 'nothing grew yet: nothing followed');
    const rowOf = (l: { records: SessionRecord[] }) => l.records.find((r) => r.stamp.path === claude)!;
    const verdict = rowOf(first).verdict;
    assert.ok(verdict, 'checked on the first read');

    // The first growth: read whole, then followed.
    fs.appendFileSync(claude, prompt('Where is the wombatgarden?', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeee1'));
    const second = await listSessions(options);
    assert.deepEqual([second.read, second.appended], [1, 0]);
    assert.ok(follow.has(claude));

    // The next growth: only the new bytes.
    const added = prompt('And the quokkameadow?', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeee2');
    fs.appendFileSync(claude, added);
    const size = fs.statSync(claude).size;
    const { result: third, bytes } = await bytesReadOf(claude, () => listSessions(options));
    assert.deepEqual([third.read, third.appended], [1, 1]);
    assert.ok(bytes < size / 2, `${bytes} bytes of ${size} read for an append of ${added.length}`);
    const row = rowOf(third);
    assert.equal(row.verdictPending, true);
    assert.deepEqual(row.verdict, verdict, 'the verdict of the file as last checked');
    assert.equal(row.stamp.size, size);
    // The same figures as a whole read of the file as it is now.
    const whole = rowOf(await listSessions({ roots }));
    assert.deepEqual(figures(row), figures(whole));
    assert.equal(row.entry.events, rowOf(first).entry.events + 2);

    // The index holds each new line once, at its line, and as many documents as an index made from scratch.
    const hitsOf = async (q: string) => (await index.search(q)).flatMap((s) => s.hits).map((h) => [h.file, h.line, h.field]);
    assert.deepEqual(await hitsOf('quokkameadow'), [[claude, lines.length + 2, 'prompt']]);
    assert.deepEqual(await hitsOf('wombatgarden'), [[claude, lines.length + 1, 'prompt']]);
    const fresh = openSearchIndex(null);
    await fresh.update({ roots });
    assert.equal((await index.size()).documents, (await fresh.size()).documents);
    await fresh.close();
    // The index's update (with the same follower) finds every file as the listing left it: nothing read again.
    const u = await index.update({ roots, cache, follow });
    assert.deepEqual([u.listing.read, u.readHere], [0, 0]);

    // Half a line written (the agent is mid-write), then the rest: the line counts once, when it is whole.
    const next = prompt('Last: the numbatgrove', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeee7');
    fs.appendFileSync(claude, next.slice(0, 40));
    const torn = await listSessions(options);
    assert.equal(torn.appended, 1);
    assert.equal(rowOf(torn).entry.events, row.entry.events, 'the torn line is no event yet');
    fs.appendFileSync(claude, next.slice(40));
    const mended = await listSessions(options);
    assert.equal(mended.appended, 1);
    assert.equal(rowOf(mended).entry.events, row.entry.events + 1);
    assert.deepEqual(figures(rowOf(mended)), figures(rowOf(await listSessions({ roots }))));
    assert.deepEqual(await hitsOf('numbatgrove'), [[claude, lines.length + 3, 'prompt']]);

    // A cache without the follower (the next start) does not keep a record whose verdict is pending.
    const restart = await listSessions({ roots, cache, watchRead: index.watchRead });
    assert.deepEqual([restart.read, restart.appended], [1, 0]);
    assert.equal(rowOf(restart).verdictPending, undefined);
    await index.close();
  });

  it('reads a followed file whole when it stops growing (its verdict made) or is rewritten in place', async () => {
    const cache = memoryCache();
    const follow = new SessionFollower();
    const options: ListSessionsOptions = { roots, cache, follow };
    await listSessions(options);
    fs.appendFileSync(claude, prompt('One more thing', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeee3'));
    await listSessions(options);
    fs.appendFileSync(claude, prompt('And another', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeee4'));
    const grown = await listSessions(options);
    assert.equal(grown.appended, 1);
    // Stopped growing: no longer followed, so the pending record is read whole, checks and all.
    follow.drop(claude);
    const settled = await listSessions(options);
    assert.deepEqual([settled.read, settled.appended], [1, 0]);
    const row = settled.records.find((r) => r.stamp.path === claude)!;
    assert.equal(row.verdictPending, undefined);
    assert.ok(row.verdict);
    // Followed again after a growth, then rewritten in place (a line changed, the same length or longer): whole.
    fs.appendFileSync(claude, prompt('Third', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeee5'));
    await listSessions(options);
    assert.ok(follow.has(claude));
    const text = fs.readFileSync(claude, 'utf8');
    fs.writeFileSync(claude, text.replace('then try to read missing.txt', 'then try to read MISSING.TXT') + prompt('Fourth', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeee6'));
    const rewritten = await listSessions(options);
    assert.deepEqual([rewritten.read, rewritten.appended], [1, 0]);
    const after = rewritten.records.find((r) => r.stamp.path === claude)!;
    assert.deepEqual(figures(after), figures((await listSessions({ roots })).records.find((r) => r.stamp.path === claude)!));
    // Deleted: the next listing lets its reader go.
    fs.appendFileSync(claude, prompt('Fifth', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeee8'));
    await listSessions(options);
    assert.ok(follow.has(claude));
    fs.rmSync(claude);
    await listSessions(options);
    assert.equal(follow.has(claude), false);
  });
});
