import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import type { ChatPart, TranscriptBlock } from '../../../src/protocol';
import { buildTranscriptIndex } from '../../../src/viewer/transcript/transcriptIndex';
import { transcriptPage } from '../../../src/viewer/transcript/transcriptPage';
import { WRITER_CORPUS } from '../../helpers/corpus';

/** The Vercel AI SDK's spans (scripts/corpus/ai-sdk.mjs): GenAI-convention and legacy `ai.*`, generateText and streamText. */
const DIR = join(WRITER_CORPUS, 'ai-sdk-7.0.185');
const FILES = ['generate-text.otlp.json', 'generate-text-legacy.otlp.json', 'stream-text.otlp.jsonl', 'stream-text-legacy.otlp.jsonl'];

type Span = { parentSpanId?: string; attributes: { key: string; value: { stringValue?: string } }[] };

/** What the run's root span says the conversation was: system, prompt, the tool call and its result, the reply. */
function conversationOf(file: string) {
  const spans: Span[] = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).flatMap((l) => JSON.parse(l).resourceSpans[0].scopeSpans[0].spans);
  const root = spans.find((s) => !s.parentSpanId)!;
  const get = (s: Span, key: string) => s.attributes.find((a) => a.key === key)?.value.stringValue;
  const tool = spans.find((s) => get(s, 'ai.toolCall.id') ?? get(s, 'gen_ai.tool.call.id'))!;
  const legacyPrompt = get(root, 'ai.prompt');
  if (legacyPrompt) {
    const p = JSON.parse(legacyPrompt);
    const calls = JSON.parse(get(root, 'ai.response.toolCalls')!);
    return { system: p.system, prompt: p.messages[0].content, callId: calls[0].toolCallId, args: calls[0].input, result: JSON.parse(get(tool, 'ai.toolCall.result')!), reply: get(root, 'ai.response.text')! };
  }
  const output = JSON.parse(get(root, 'gen_ai.output.messages')!)[0].parts;
  const call = output.find((p: { type: string }) => p.type === 'tool_call');
  return {
    system: JSON.parse(get(root, 'gen_ai.system_instructions')!)[0].content,
    prompt: JSON.parse(get(root, 'gen_ai.input.messages')!)[0].parts[0].content,
    callId: call.id,
    args: call.arguments,
    result: JSON.parse(get(tool, 'gen_ai.tool.call.result')!),
    reply: output.at(-1).content,
  };
}

async function blocksOf(file: string): Promise<TranscriptBlock[]> {
  const model = await loadTrace(file);
  return transcriptPage(model, buildTranscriptIndex(model), 0, 200, new Map());
}

/** Each block's messages as [role, what each part says]. */
const said = (b: TranscriptBlock) => b.messages.map((m) => [m.role, m.parts.map((p: ChatPart) => (p.type === 'text' ? p.text : p.type === 'toolCall' ? `call ${p.name} ${p.id}` : p.type === 'toolResult' ? `result ${p.id}` : p.type))]);

describe('transcript of the Vercel AI SDK spans (issue 42)', () => {
  for (const name of FILES) {
    it(`${name}: the run, the prompt and the call, the tool with its result, the reply: in order, each once`, async () => {
      const file = join(DIR, name);
      const c = conversationOf(file);
      const blocks = await blocksOf(file);
      assert.deepEqual(blocks.map((b) => b.kind), ['invoke_agent', 'chat', 'execute_tool', 'chat'], 'spans by start, the run first');
      // The run's own messages repeat its model calls': its block shows none.
      assert.deepEqual(blocks[0].messages, []);
      assert.deepEqual(said(blocks[1]), [['system', [c.system]], ['user', [c.prompt]], ['assistant', ['I will run the command.', `call shell ${c.callId}`]]]);
      assert.deepEqual(said(blocks[2]), [['tool', [`call shell ${c.callId}`, `result ${c.callId}`]]]);
      assert.deepEqual(said(blocks[3]), [['assistant', [c.reply]]], 'the re-sent history, the tool result included, folds into earlier');
      assert.equal(blocks[3].earlier?.count, 4);
      const call = blocks[1].messages[2].parts[1];
      assert.ok(call.type === 'toolCall' && call.view?.kind === 'shell' && call.view.command === c.args.command);
      const result = blocks[2].messages[0].parts[1];
      assert.ok(result.type === 'toolResult');
      assert.equal(result.text, c.result, 'the result as the tool returned it (the span writes it as JSON text)');
      assert.equal(result.toolName, 'shell');
      assert.deepEqual(blocks.filter((b) => b.turn).map((b) => [b.turn!.number, b.turn!.tokensIn !== null]), [[1, true], [2, true]]);
    });
  }
});
