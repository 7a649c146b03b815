// The core modules under mutation testing: each is a group of source files that Stryker mutates
// together and whose score RELIABILITY.md reports. A module of a later issue joins by a line here.
// `tests` names the vitest config whose tests may kill the module's mutants: the unit tests beside
// the sources by default; MCPClient's behaviour is tested from e2e/ (in-process, against src/), so
// its module, and the Streamable HTTP client's under it, add those files.
const UNIT = "mutation/vitest.config.ts";

export const MODULES = {
  dispatcher: { mutate: ["src/jsonrpc/dispatcher/{classify,dispatcher,incoming,outgoing}.ts"], tests: UNIT },
  stdio: { mutate: ["src/transport/stdio/{line-decoder,stdio}.ts"], tests: UNIT },
  "http-front-door": {
    mutate: [
      "src/transport/http-server/{front-door,protection,media-types,protocol-version,read-post,request-body,authentication,routes}.ts",
    ],
    tests: UNIT,
  },
  "streamable-http-client": {
    mutate: [
      "src/transport/http-client/{streamable-http,post-exchange,http-session,event-stream,reconnection,session-renewal,request-cancel}.ts",
    ],
    // Its stateless-era POSTs are driven by MCPClient from e2e/ (client-http-eras), as the client's module is.
    tests: "mutation/vitest.client.config.ts",
  },
  "mcp-server": {
    mutate: [
      "src/server/mcp-server/{mcp-server,session,server-host,handler-context,tools,resources,prompts,completion,pagination,registry," +
        "url-elicitation,schema-support}.ts",
      "src/server/core/{input-answers,input-capabilities}.ts",
    ],
    tests: UNIT,
  },
  "stateless-server": {
    mutate: [
      "src/server/stateless/{stateless-requests,stateless-context,input-rounds,listen,request-meta,request-state}.ts",
      "src/transport/http-server/stateless-era-post.ts",
      "src/stores/{change-feed,request-state-keys}.ts",
    ],
    tests: UNIT,
  },
  "resource-server": {
    mutate: [
      "src/auth/server/{protected-resource,token-owner,metadata,bearer,challenge,insufficient-scope,introspection," +
        "token-cache,jwt-verifier}.ts",
    ],
    tests: UNIT,
  },
  protocol: {
    mutate: [
      "src/protocol/{downgrade,downgrade-items,downgrade-requests,revision-features,profiles,mcp-headers,header-params," +
        "header-encoding,request-headers,bytes-text}.ts",
    ],
    tests: UNIT,
  },
  "auth-client": {
    mutate: [
      "src/auth/client/{authorizer,dpop,grants,token-endpoint,registration,oauth-store,interaction,auth-error,authorization-request," +
        "authorization-server,metadata-fetch,pkce,protected-resource,scopes,url-safety,www-authenticate}.ts",
    ],
    tests: UNIT,
  },
  jose: { mutate: ["src/auth/jose/{algorithms,client-assertion,errors,jwk,jws,jwks,jwt}.ts"], tests: UNIT },
  "mcp-client": {
    mutate: [
      "src/client/mcp-client/{mcp-client,listing-client,response-cache,handshake,capabilities,elicitation,sampling,server-requests," +
        "lists,list-cache,tool-output,client-options}.ts",
      "src/client/era/{connect,stateless-calls,negotiation,tool-headers,listen,changes}.ts",
    ],
    tests: "mutation/vitest.client.config.ts",
  },
  middleware: {
    mutate: [
      "src/middleware/{chain,client-middleware,incoming-middleware,server-middleware,input-middleware,notification-middleware}.ts",
      "src/middleware/builtins/{retry,observe,caller,rate-limit,size-limit,require-scopes,result-cache,authorize}.ts",
    ],
    tests: UNIT,
  },
  telemetry: { mutate: ["src/telemetry/{telemetry,telemetry-loader,global-api,names}.ts"], tests: UNIT },
  compose: { mutate: ["src/server/compose/{mount,mount-entries,entry-sync}.ts"], tests: UNIT },
  proxy: { mutate: ["src/proxy/!(*.test|*.test-helpers|*.types|index).ts"], tests: UNIT },
  "uri-template": { mutate: ["src/uri-template/!(*.test|index).ts"], tests: UNIT },
  "client-group": {
    mutate: ["src/client/group/{servers-config,names,open-server,server-group}.ts", "src/node/server-group.ts"],
    tests: UNIT,
  },
  "task-store": { mutate: ["src/stores/{task-store,in-memory-task-store}.ts"], tests: UNIT },
  // Sessions across instances (issue 22): the relay, leases, takeover, and the seams' in-memory implementations.
  cluster: {
    mutate: [
      "src/transport/http-server/cluster/!(*.test|*.test-helpers|*.units.test).ts",
      "src/transport/http-server/orphaned.ts",
      "src/stores/{session-directory,instance-bus}.ts",
    ],
    tests: UNIT,
  },
  tasks: { mutate: ["src/server/tasks/!(*.test|*.test-helpers|index).ts"], tests: UNIT },
  // Driven by MCPClient from e2e/ as well (tasks over stdio and HTTP), as the client's module is.
  "client-tasks": { mutate: ["src/client/tasks/{client-tasks,task-wait}.ts"], tests: "mutation/vitest.client.config.ts" },
};
