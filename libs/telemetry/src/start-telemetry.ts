import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';

export type TraceExporterKind = 'none' | 'console' | 'otlp';

export interface TelemetryOptions {
  serviceName: string;
  exporter: TraceExporterKind;
  /** Base URL of an OTLP/HTTP collector (OTEL_EXPORTER_OTLP_ENDPOINT); /v1/traces is appended. */
  otlpEndpoint?: string;
  /** Extra processors (tests pass an in-memory exporter here). */
  spanProcessors?: SpanProcessor[];
}

export interface Telemetry {
  shutdown(): Promise<void>;
}

let running: Telemetry | undefined;

/**
 * Starts OpenTelemetry for this process: http and express instrumentation (server and
 * node:http client spans), W3C trace-context + baggage propagation and the chosen exporter.
 * Must run before express/http are loaded (main.ts calls it first).
 *
 * With exporter 'none' (and no extra processors) nothing would ever record a span, so the http and
 * express instrumentations are not installed: they cost a sizeable share of a request's CPU in the
 * embedded profile (docs/benchmarks.md) for spans nobody sees. The propagator and context manager are still installed.
 * Choose 'console' or 'otlp' to get spans that continue across services and bus messages.
 * One SDK per process: a second call returns a handle whose shutdown does nothing.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (running) return { shutdown: async () => undefined };
  const processors: SpanProcessor[] = [...(options.spanProcessors ?? [])];
  if (options.exporter === 'console') processors.push(new SimpleSpanProcessor(new ConsoleSpanExporter()));
  if (options.exporter === 'otlp') {
    const url = options.otlpEndpoint ? `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` : undefined;
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter(url ? { url } : {})));
  }
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    autoDetectResources: false,
    spanProcessors: processors,
    // Explicit so that the SDK does not fall back to its env defaults (OTLP log export).
    logRecordProcessors: [],
    textMapPropagator: new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    instrumentations:
      processors.length === 0
        ? []
        : [
            new HttpInstrumentation({
              // Health probes would drown the traces.
              ignoreIncomingRequestHook: (req) => req.url === '/health' || req.url === '/ready',
            }),
            new ExpressInstrumentation(),
          ],
  });
  sdk.start();
  const handle: Telemetry = {
    shutdown: async () => {
      if (running !== handle) return;
      running = undefined;
      await sdk.shutdown();
    },
  };
  running = handle;
  return handle;
}

/** Reads OTEL_TRACES_EXPORTER (none|console|otlp, default none) and OTEL_EXPORTER_OTLP_ENDPOINT. */
export function telemetryOptionsFromEnv(serviceName: string, env: NodeJS.ProcessEnv = process.env): TelemetryOptions {
  const raw = (env.OTEL_TRACES_EXPORTER ?? 'none').trim().toLowerCase();
  if (raw !== 'none' && raw !== 'console' && raw !== 'otlp') {
    throw new Error(`invalid configuration: OTEL_TRACES_EXPORTER: must be none, console or otlp`);
  }
  const options: TelemetryOptions = { serviceName, exporter: raw };
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) options.otlpEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return options;
}

/** startTelemetry with the options read from the environment (main.ts of a standalone service). */
export function startTelemetryFromEnv(serviceName: string, env: NodeJS.ProcessEnv = process.env): Telemetry {
  return startTelemetry(telemetryOptionsFromEnv(serviceName, env));
}
