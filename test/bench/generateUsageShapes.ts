// Traces heavy in usage facts for the usage bench, in the shapes of the real writers' files (test/corpus):
// a Claude Code transcript (cache read and write on every response, a response split over two lines that
// repeat its usage, tool results, cost-state totals) and OTLP spans (agent spans that aggregate their chat
// spans' tokens, cache-read attributes, tool spans).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

type Write = (line: object) => Promise<void>;

async function withWriter(path: string, body: (write: Write) => Promise<void>): Promise<void> {
  const out = createWriteStream(path);
  await body(async (line) => {
    if (!out.write(JSON.stringify(line) + '\n')) await once(out, 'drain');
  });
  out.end();
  await once(out, 'finish');
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
const uuid = (n: number): string => `${hex(n >>> 16, 8)}-${hex(n & 0xffff, 4)}-4000-8000-${hex(n, 12)}`;
const SESSION = uuid(0xfffffff);
const T0 = Date.UTC(2026, 11, 1, 16, 0, 0);
const iso = (n: number): string => new Date(T0 + n * 10).toISOString();

/**
 * A Claude Code session transcript of about `events` lines: prompts of 20 turns; a turn is the model's text
 * line and its tool_use line (one response: the same message id and usage on both), then the tool's result;
 * a cost-state line with the session's totals after each prompt.
 */
export async function generateClaudeCodeTrace(path: string, events: number): Promise<void> {
  await withWriter(path, async (write) => {
    const common = { userType: 'external', entrypoint: 'sdk-cli', cwd: '/home/user/project', sessionId: SESSION, version: '2.1.332', gitBranch: 'HEAD' };
    const totals = { input: 0, output: 0, read: 0, write: 0, cost: 0 };
    let n = 1;
    let parent: string | null = null;
    const line = (type: string, body: object): object => {
      const u = uuid(n);
      const out = { parentUuid: parent, isSidechain: false, ...body, type, uuid: u, timestamp: iso(n), ...common };
      parent = u;
      n++;
      return out;
    };
    while (n < events) {
      await write(line('user', { promptId: uuid(n + 1e6), message: { role: 'user', content: `Task ${n}: run the tests and fix what fails.` }, permissionMode: 'default' }));
      for (let turn = 0; turn < 20 && n < events; turn++) {
        const usage = { input_tokens: 500 + (n % 97), cache_creation_input_tokens: 200 + (n % 31), cache_read_input_tokens: 4000 + (n % 113), output_tokens: 30 + (n % 17), output_tokens_details: { thinking_tokens: n % 5 }, service_tier: 'standard' };
        totals.input += usage.input_tokens, totals.output += usage.output_tokens, totals.read += usage.cache_read_input_tokens, totals.write += usage.cache_creation_input_tokens;
        const id = `msg_bench${hex(n, 8)}`;
        const requestId = `req_${hex(n, 8)}`;
        const message = (content: object[]) => ({ id, type: 'message', role: 'assistant', model: 'claude-opus-4-5', content, stop_reason: 'tool_use', stop_sequence: null, usage });
        const call = `toolu_bench${hex(n, 8)}`;
        await write(line('assistant', { message: message([{ type: 'text', text: 'I will run the command.' }]), requestId }));
        await write(line('assistant', { message: message([{ type: 'tool_use', id: call, name: turn % 3 === 0 ? 'Read' : 'Bash', input: { command: `npm test -- --grep case${n % 50}` } }]), requestId }));
        await write(line('user', { message: { role: 'user', content: [{ tool_use_id: call, type: 'tool_result', content: `ok ${n}`, is_error: n % 29 === 0 }] }, toolUseResult: { stdout: `ok ${n}`, stderr: '', interrupted: false } }));
      }
      totals.cost = (totals.input * 5 + totals.output * 25) / 1e6;
      await write({ type: 'cost-state', sessionId: SESSION, totalCostUSD: totals.cost, modelUsage: { 'claude-opus-4-5': { inputTokens: totals.input, outputTokens: totals.output, cacheReadInputTokens: totals.read, cacheCreationInputTokens: totals.write, costUSD: totals.cost } } });
      n++;
    }
  });
}

const attr = (key: string, v: string | number): object => ({ key, value: typeof v === 'string' ? { stringValue: v } : { intValue: v } });

/**
 * OTLP/JSON lines of about `events` spans, 100 to a line: per trace an `invoke_agent` span whose usage sums its
 * chat spans' (an aggregate the rollups must not add), 16 chat spans with cache-read tokens, 16 tool spans.
 */
export async function generateOtlpTrace(path: string, events: number): Promise<void> {
  await withWriter(path, async (write) => {
    let n = 0;
    let batch: object[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await write({ resourceSpans: [{ resource: { attributes: [attr('service.name', 'bench-agent')] }, scopeSpans: [{ scope: { name: 'bench', version: '0.1.0' }, spans: batch }] }] });
      batch = [];
    };
    const span = async (trace: string, id: number, parent: number | null, name: string, start: number, ms: number, attributes: object[], error = false) => {
      batch.push({
        traceId: trace, spanId: hex(id, 16), ...(parent !== null ? { parentSpanId: hex(parent, 16) } : {}), name, kind: 1,
        startTimeUnixNano: `${BigInt(T0 + start) * 1_000_000n}`, endTimeUnixNano: `${BigInt(T0 + start + ms) * 1_000_000n}`, attributes, events: [], status: { code: error ? 2 : 1 },
      });
      if (batch.length === 100) await flush();
    };
    while (n < events) {
      const trace = hex(n, 32);
      const root = n++;
      let input = 0, output = 0;
      const kids: [number, object[], string, boolean][] = [];
      for (let k = 0; k < 16 && n + 1 < events; k++) {
        const i = 1800 + (n % 211), o = 60 + (n % 23);
        input += i, output += o;
        kids.push([n++, [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'gpt-5'), attr('gen_ai.response.model', 'gpt-5-2025-08-07'), attr('gen_ai.usage.input_tokens', i), attr('gen_ai.usage.output_tokens', o), attr('gen_ai.usage.cache_read.input_tokens', 1024)], 'chat gpt-5', false]);
        kids.push([n++, [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'shell'), attr('gen_ai.tool.call.id', `call_${n}`)], 'execute_tool shell', n % 31 === 0]);
      }
      await span(trace, root, null, 'invoke_agent bench', root, kids.length * 50, [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', 'bench'), attr('gen_ai.usage.input_tokens', input), attr('gen_ai.usage.output_tokens', output)]);
      for (const [id, attributes, name, error] of kids) await span(trace, id, root, name, id, 40, attributes, error);
    }
    await flush();
  });
}
