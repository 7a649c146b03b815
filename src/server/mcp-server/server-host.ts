import type { Implementation, ServerCapabilities } from "../../schemas/schemas.js";
import type { SessionHandlerContext } from "./handler-context.js";
import type { MCPServerOptions } from "./mcp-server.types.js";
import type { ProtocolVersion } from "../../constants/index.js";

/** A feature method's handler, as the session runs it. */
export type FeatureHandler = (params: never, context: SessionHandlerContext) => unknown;

/** What a session needs from the server that owns it. */
export interface ServerHost {
  readonly info: Implementation;
  readonly options: MCPServerOptions;
  /** The capabilities to declare to a client of this revision, from what is registered now. */
  capabilitiesFor(version: ProtocolVersion): ServerCapabilities;
  /** The handlers of the tools, resources, prompts and completion methods. */
  featureHandlers(): ReadonlyMap<string, FeatureHandler>;
}
