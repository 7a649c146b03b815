// `@suaveplan/mcp/telemetry`: the OpenTelemetry glue — `Telemetry` (pass one as the `telemetry`
// option to choose providers) and `defaultTelemetry`. The main entry exports the names and types
// only, so importing the library does not load the glue (which itself loads no copy of
// `@opentelemetry/api`: it reads what the host's copy registered, see global-api.ts).
export * from "./telemetry.js";
