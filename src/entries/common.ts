// What every entry of a side exports, as the universal entry does: the protocol's constants and
// types, the errors, the events, the telemetry names, the dispatcher, the revisions, and the
// transports both sides use (in-memory, stdio).
export * from "../constants/index.js";
export type * from "../types/types.js";
export * from "../error-codes/index.js";
// The protocol's types; the zod schemas themselves are `@suaveplan/mcp/schemas` (the library's own wire checks need no zod: src/wire/).
export type * from "../schemas/schemas.js";
export * from "../events/events.js";
// The OpenTelemetry glue (`Telemetry`) is `@suaveplan/mcp/telemetry`; a dispatcher loads it itself when OpenTelemetry is in use.
export type * from "../telemetry/telemetry.js";
export * from "../telemetry/names.js";
export * from "../jsonrpc/dispatcher/index.js";
export { PROFILES, profileOf, versionsOf, type Era, type RevisionProfile } from "../protocol/profiles.js";
export * from "../transport/transport/index.js";
export * from "../transport/in-memory/index.js";
export * from "../transport/stdio/index.js";
