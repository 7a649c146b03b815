// The names telemetry is recorded under: here, apart from the OpenTelemetry glue, so the main entry
// can export them without loading the OpenTelemetry API.

/** The instrumentation scope of every meter and tracer the library creates. */
export const INSTRUMENTATION_SCOPE = "@suaveplan/mcp";

/** Metric names, exactly as the design lists them. */
export const METRIC_NAMES = {
  requestTotal: "mcp_request_total",
  notificationTotal: "mcp_notification_total",
  requestDuration: "mcp_request_duration_ms",
} as const;
