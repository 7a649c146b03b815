// Checks on `sampling/createMessage` that the wire schema cannot express (2025-11-25 tool use).
import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  SamplingMessage,
  SamplingMessageContentBlock,
} from "../../schemas/schemas.js";

/** Throws the -32602 the spec asks for when the request uses tools the client did not declare or breaks the tool-use rules. */
export function checkSamplingRequest(params: CreateMessageRequestParams, declared: ClientCapabilities): void {
  // Stryker disable next-line OptionalChaining: this check runs only for a client with sampling handlers, which always declares sampling
  if ((params.tools !== undefined || params.toolChoice !== undefined) && declared.sampling?.tools === undefined) {
    throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, "This client did not declare sampling.tools: it cannot sample with tools");
  }
  const problem = toolUseProblem(params.messages);
  if (problem) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, problem);
}

/**
 * What breaks the tool-use rules: a message that mixes `tool_result` with other content, or a
 * `tool_use` that the next message does not answer with a `tool_result` of the same id.
 */
export function toolUseProblem(messages: readonly SamplingMessage[]): string | undefined {
  for (const [index, message] of messages.entries()) {
    const blocks = blocksOf(message);
    // Stryker disable next-line EqualityOperator: "some but not all blocks are tool_result" is "some but not all are not"; the count of
    // either side tells the same
    const results = blocks.filter((block) => block.type === "tool_result");
    if (results.length > 0 && results.length < blocks.length) {
      return `messages[${index}] mixes tool_result with other content`;
    }
    const answered = new Set(blocksOf(messages[index + 1]).map((block) => (block.type === "tool_result" ? block.toolUseId : undefined)));
    const unanswered = blocks.find((block) => block.type === "tool_use" && !answered.has(block.id));
    if (unanswered?.type === "tool_use") {
      return `Tool result missing: tool_use ${unanswered.id} in messages[${index}] has no tool_result in the message after it`;
    }
  }
  return undefined;
}

function blocksOf(message: SamplingMessage | undefined): readonly SamplingMessageContentBlock[] {
  // Stryker disable next-line ArrayDeclaration: the blocks of the missing message after the last only give ids that answer a tool_use; a
  // non-block gives none
  if (message === undefined) return [];
  return Array.isArray(message.content) ? message.content : [message.content];
}
