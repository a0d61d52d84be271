/**
 * The GenAI names this export uses from `@opentelemetry/semantic-conventions/incubating`. The package offers
 * that entry only through package exports, which `moduleResolution: node` cannot follow, so the types are
 * declared here (as the package declares them); the values still come from the package at run time, and the
 * bundler resolves the entry to its ES module so only these constants are bundled.
 */
declare module '@opentelemetry/semantic-conventions/incubating' {
  export const ATTR_GEN_AI_CONVERSATION_ID: 'gen_ai.conversation.id';
  export const ATTR_GEN_AI_OPERATION_NAME: 'gen_ai.operation.name';
  export const ATTR_GEN_AI_PROVIDER_NAME: 'gen_ai.provider.name';
  export const ATTR_GEN_AI_REQUEST_MODEL: 'gen_ai.request.model';
  export const ATTR_GEN_AI_RESPONSE_MODEL: 'gen_ai.response.model';
  export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons';
  export const ATTR_GEN_AI_INPUT_MESSAGES: 'gen_ai.input.messages';
  export const ATTR_GEN_AI_OUTPUT_MESSAGES: 'gen_ai.output.messages';
  export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments';
  export const ATTR_GEN_AI_TOOL_CALL_RESULT: 'gen_ai.tool.call.result';
  export const ATTR_GEN_AI_TOOL_CALL_ID: 'gen_ai.tool.call.id';
  export const ATTR_GEN_AI_TOOL_NAME: 'gen_ai.tool.name';
  export const ATTR_GEN_AI_USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens';
  export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens';
  export const ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS: 'gen_ai.usage.cache_read.input_tokens';
  export const ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS: 'gen_ai.usage.cache_creation.input_tokens';
  export const ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS: 'gen_ai.usage.reasoning.output_tokens';
  export const GEN_AI_OPERATION_NAME_VALUE_CHAT: 'chat';
  export const GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL: 'execute_tool';
  export const GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT: 'invoke_agent';
}
