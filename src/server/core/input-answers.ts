import { METHODS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { compileJsonSchema } from "../../json-schema/json-schema.js";
import type { ElicitRequestFormParams, ElicitResult } from "../../schemas/schemas.js";
import { wireLayer } from "../../schemas/wire-loader.js";
import type { WireMethodSchemas } from "../../wire/wire-codecs.js";
import type { JsonObject } from "../../types/types.js";

/** The revision whose answer shapes (ElicitResult, CreateMessageResult, ListRootsResult) both eras share. */
const ANSWER_SHAPES = "2025-11-25";

/**
 * Checks the client's answer to a request for input, in either era: its shape (unless the caller's
 * codec checked it), and an accepted form elicitation against the schema that was asked for.
 * Returns the answer; throws `MCP.INVALID_PARAMS`.
 */
export function checkInputAnswer(method: string, params: JsonObject | undefined, answer: unknown, shapeChecked = false): unknown {
  // Asked for input, a server asks one of the three methods, each with an answer schema.
  const shaped = shapeChecked
    ? { ok: true as const, value: answer }
    : (wireLayer().codecFor(ANSWER_SHAPES).serverRequests[method] as WireMethodSchemas).result.validate(answer);
  if (!shaped.ok) throw new MCPError(MCP_CODES.INVALID_PARAMS, `The client's answer to ${method} is malformed: ${shaped.issues}`);
  if (method !== METHODS.elicitationCreate || params?.["mode"] === "url") return shaped.value;
  const result = shaped.value as ElicitResult;
  if (result.action === "accept") {
    const checked = compileJsonSchema((params as unknown as ElicitRequestFormParams).requestedSchema).validate(result.content ?? {});
    if (!checked.ok)
      throw new MCPError(
        MCP_CODES.INVALID_PARAMS,
        `The client's elicitation answer does not match the requested schema: ${checked.issues}`,
        { data: result },
      );
  }
  return result;
}
