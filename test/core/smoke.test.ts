import { strict as assert } from 'node:assert';
import { FORMAT_NAMES } from '../../src/core/formats';

describe('format names', () => {
  it('are the public contract', () => {
    assert.deepEqual([...FORMAT_NAMES], ['murmur', 'harness-ledger', 'lumen', 'agentledger', 'deepstrike', 'claude-code', 'codex', 'gemini-cli', 'qwen-code', 'copilot-cli', 'pi', 'opencode', 'continue', 'otlp', 'generic']);
  });
});
