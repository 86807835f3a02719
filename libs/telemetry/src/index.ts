export { startTelemetry, startTelemetryFromEnv, telemetryOptionsFromEnv } from './start-telemetry';
export type { Telemetry, TelemetryOptions, TraceExporterKind } from './start-telemetry';
export { injectTraceContext, extractTraceContext, HandedOverContexts } from './trace-context';
