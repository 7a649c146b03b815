// The core modules under mutation testing: each is a group of source files that Stryker mutates
// together and whose score RELIABILITY.md reports. A module of a later issue joins by a line here.
export const MODULES = {
  dispatcher: ["src/jsonrpc/dispatcher/{classify,dispatcher,incoming,outgoing}.ts"],
  stdio: ["src/transport/stdio/{line-decoder,stdio}.ts"],
  "http-front-door": [
    "src/transport/http-server/{front-door,protection,media-types,protocol-version,read-post,request-body,authentication,routes}.ts",
  ],
  "streamable-http-client": [
    "src/transport/http-client/{streamable-http,post-exchange,http-session,event-stream,reconnection,session-renewal,request-cancel}.ts",
  ],
  "mcp-server": [
    "src/server/mcp-server/{mcp-server,session,server-host,handler-context,tools,resources,prompts,completion,pagination,registry,url-elicitation,revision-rules}.ts",
  ],
  "mcp-client": [
    "src/client/mcp-client/{mcp-client,handshake,capabilities,elicitation,sampling,server-requests,lists,list-cache,tool-output}.ts",
  ],
};
