// `@suaveplan/mcp/schemas`: the protocol's zod schemas — envelopes, each revision's codec and
// schemas, `validate` — and its types. The main entry re-exports the types only, so importing the
// library does not load zod; the library loads this layer itself with its first connection.
export * from "./schemas.js";
