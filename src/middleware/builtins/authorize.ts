// The server's `authorize` hook as a layer: it sees every request the server answers, the feature
// methods and its own (initialize, ping…), in either era, and refuses one the hook says no to with
// MCP.UNAUTHORIZED before anything behind it runs. `MCPServerOptions.authorize` puts it first.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { AuthorizeRequest } from "../../server/mcp-server/mcp-server.types.js";
import type { ServerSession } from "../../server/mcp-server/session.js";
import type { ServerMiddleware } from "../server-middleware.js";

/** `server.use(authorize((request) => …))`: the hook's `false` (or a promise of it) refuses the request. */
export function authorize(hook: (request: AuthorizeRequest) => boolean | Promise<boolean>): ServerMiddleware {
  return (next) => async (request, context) => {
    // A session-era context's session is the ServerSession itself.
    const session = context.session as ServerSession | undefined;
    if (!(await hook({ method: request.method, params: request.params, session, inbound: context.inbound })))
      throw new MCPError(MCP_CODES.UNAUTHORIZED, `Not authorized to call ${request.method}`);
    return next(request, context);
  };
}
