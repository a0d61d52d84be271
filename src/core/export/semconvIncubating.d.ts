/**
 * The GenAI names this export uses from `@opentelemetry/semantic-conventions/incubating`. The package offers
 * that entry only through package exports, which `moduleResolution: node` cannot follow, so the types are
 * declared here (as the package declares them); the values still come from the package at run time, and the
 * bundler resolves the entry to its ES module so only these constants are bundled.
 */
declare module '@opentelemetry/semantic-conventions/incubating' {
  export const ATTR_GEN_AI_CONVERSATION_ID: 'gen_ai.conversation.id';
  export const ATTR_GEN_AI_OPERATION_NAME: 'gen_ai.operation.name';
  export const ATTR_GEN_AI_REQUEST_MODEL: 'gen_ai.request.model';
  export const ATTR_GEN_AI_TOOL_CALL_ID: 'gen_ai.tool.call.id';
  export const ATTR_GEN_AI_TOOL_NAME: 'gen_ai.tool.name';
  export const ATTR_GEN_AI_USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens';
  export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens';
  export const GEN_AI_OPERATION_NAME_VALUE_CHAT: 'chat';
  export const GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL: 'execute_tool';
  export const GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT: 'invoke_agent';
}
