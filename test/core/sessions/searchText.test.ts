// What the search index keeps of a line: the text a person searches for. On the real OpenTelemetry SDK's export
// (test/corpus/otel-js-2.12.1), an attribute's name (`gen_ai.input.messages`) and its ids and models are metadata:
// neither is indexed nor shown in a snippet, while the prompt, the tool's command and its output are.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { textOf } from '../../../src/core/sessions/searchText';

const LINES = readFileSync('test/corpus/otel-js-2.12.1/otlp-traces-messages.jsonl', 'utf8').split('\n').filter((l) => l !== '');

describe('search text of an OTLP line', () => {
  it('keeps the conversation and the tool calls, not the attributes\' names, ids or model names', () => {
    const text = LINES.map((l) => textOf(JSON.parse(l))).join('\n');
    const raw = LINES.join('\n');
    assert.match(text, /How many TypeScript files are in src\//);
    assert.match(text, /find src -name/);
    // The names are in the file (the test would prove nothing otherwise), and not in the text.
    for (const name of ['gen_ai.operation.name', 'gen_ai.input.messages', 'gen_ai.request.model']) {
      assert.ok(raw.includes(name), `${name} in the file`);
      assert.ok(!text.includes(name), `${name} indexed`);
    }
    // What an error says stays: its type is searched for.
    const errors = readFileSync('test/corpus/otel-js-2.12.1/otlp-traces.jsonl', 'utf8').split('\n').filter((l) => l !== '').map((l) => textOf(JSON.parse(l))).join('\n');
    assert.match(errors, /ToolExecutionError/);
    const responseId = /"gen_ai\.response\.id","value":\{"stringValue":"([^"]+)"/.exec(raw)?.[1];
    assert.ok(responseId, 'a response id in the file');
    assert.ok(!text.includes(responseId), 'the response id is indexed');
  });
});
