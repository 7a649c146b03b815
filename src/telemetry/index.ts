// `@suaveplan/mcp/telemetry`: the OpenTelemetry glue — `Telemetry` (pass one as the `telemetry`
// option to choose providers) and `defaultTelemetry`. The main entry exports the names and types
// only, so importing the library does not load `@opentelemetry/api`.
export * from "./telemetry.js";
