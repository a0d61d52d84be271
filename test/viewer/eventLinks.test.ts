// Links to events: workspace-relative inside a workspace folder, absolute only outside; read back safely.
import { strict as assert } from 'node:assert';
import { eventLinkQuery, eventLinkQueryText, parseEventLink } from '../../src/viewer/eventLinks';

const WS = [{ name: 'samples', fsPath: '/home/u/samples' }];
const TWO = [...WS, { name: 'other', fsPath: '/home/u/other' }];

describe('event links', () => {
  it('are workspace-relative for a trace inside the workspace, with the folder name only when several are open', () => {
    assert.equal(eventLinkQuery('/home/u/samples/murmur/ses_1/trace.jsonl', 14, WS).toString(), 'path=murmur%2Fses_1%2Ftrace.jsonl&line=14');
    assert.equal(eventLinkQuery('/home/u/other/a.jsonl', 2, TWO).toString(), 'path=a.jsonl&folder=other&line=2');
  });

  it('fall back to the absolute path outside every folder (and for a folder name that is only a prefix)', () => {
    assert.equal(eventLinkQuery('/tmp/t.jsonl', 3, WS).toString(), 'file=%2Ftmp%2Ft.jsonl&line=3');
    assert.equal(eventLinkQuery('/home/u/samples2/t.jsonl', 3, WS).get('file'), '/home/u/samples2/t.jsonl');
    assert.equal(eventLinkQuery('/home/u/t.jsonl', 1, []).get('file'), '/home/u/t.jsonl');
  });

  it('read back: relative paths against the named folder first, then every folder', () => {
    assert.deepEqual(parseEventLink('path=a.jsonl&folder=other&line=2', TWO), { candidates: ['/home/u/other/a.jsonl', '/home/u/samples/a.jsonl'], line: 2 });
    assert.deepEqual(parseEventLink('path=murmur%2Ft.jsonl&line=14', WS), { candidates: ['/home/u/samples/murmur/t.jsonl'], line: 14 });
    assert.deepEqual(parseEventLink('file=%2Ftmp%2Ft.jsonl&line=3', WS), { candidates: ['/tmp/t.jsonl'], line: 3 });
  });

  it('refuse links without a file, with a bad line, climbing out of the folder or with a relative file', () => {
    for (const q of ['line=3', 'path=a.jsonl&line=0', 'path=a.jsonl&line=x', 'path=..%2Fsecret.jsonl&line=1', 'path=%2Fetc%2Fpasswd&line=1', 'file=rel.jsonl&line=1']) {
      assert.equal(parseEventLink(q, WS), null, q);
    }
  });

  it('a link\'s query is encoded once and reads back as a browser or VS Code hands it over (issue 40)', () => {
    const q = eventLinkQuery('/home/u/samples/my runs/a+b 100%.jsonl', 7, WS);
    const text = eventLinkQueryText(q);
    assert.equal(text, 'path=my%20runs/a%2Bb%20100%25.jsonl&line=7');
    const want = { candidates: ['/home/u/samples/my runs/a+b 100%.jsonl'], line: 7 };
    assert.deepEqual(parseEventLink(text, WS), want, 'as a browser passes it');
    assert.deepEqual(parseEventLink(decodeURIComponent(text), WS), want, 'decoded once, as VS Code passes it');
  });
});
