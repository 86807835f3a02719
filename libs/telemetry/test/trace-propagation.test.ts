import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { context, trace } from '@opentelemetry/api';
import { startTelemetry, type Telemetry } from '../src/start-telemetry';
import { extractTraceContext, injectTraceContext } from '../src/trace-context';

const exporter = new InMemorySpanExporter();
const telemetry: Telemetry = startTelemetry({ serviceName: 'test', exporter: 'none', spanProcessors: [new SimpleSpanProcessor(exporter)] });

afterAll(async () => {
  await telemetry.shutdown();
});

describe('trace propagation', () => {
  it('when service A calls service B over HTTP inside a span, then B continues the same trace and tags the request id', async () => {
    // A real Node process: jest's module registry keeps node:http away from the instrumentation hooks.
    const fixture = join(__dirname, 'fixtures', 'two-services.fixture.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture], { cwd: join(__dirname, '..'), timeout: 20_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;

    expect(result.callerTraceId).toMatch(/^[0-9a-f]{32}$/);
    expect(result.calleeTraceId).toBe(result.callerTraceId);
    expect(result.serverSpanTraceId).toBe(result.callerTraceId);
    expect(result.serverSpanParentId).toBe(result.clientSpanId);
    expect(result.serverSpanRequestId).toBe('req-trace-1');
  });

  it('when trace context is put into message headers, then a consumer extracting it continues the trace', () => {
    const tracer = trace.getTracer('bus');
    const headers = tracer.startActiveSpan('publish', (span) => {
      const h = injectTraceContext({});
      span.end();
      return { h, traceId: span.spanContext().traceId };
    });
    expect(headers.h.traceparent).toContain(headers.traceId);
    const consumerTraceId = context.with(extractTraceContext(headers.h), () =>
      tracer.startActiveSpan('consume', (span) => {
        span.end();
        return span.spanContext().traceId;
      }),
    );
    expect(consumerTraceId).toBe(headers.traceId);
  });
});
