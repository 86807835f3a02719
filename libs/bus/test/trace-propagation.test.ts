import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { waitFor } from '@vaultline/core';
import { domainEvent, parseEnvelope, paymentAuthorizedV1 } from '@vaultline/contracts';
import { createLogger } from '@vaultline/logger';
import { MemoryDocumentStore } from '@vaultline/store';
import { createEventConsumer, eventMessage, openBus, startOutboxRelay } from '../src';
import { aPayment, SCOPE } from './fixtures';

const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager().enable();

beforeAll(() => {
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});

afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

describe('trace context across the bus', () => {
  it('when a domain event is published with uow.publish inside a span, then a "publish <type>" span hangs below it and the consumer handles the event in a "consume <type>" span below that', async () => {
    const store = new MemoryDocumentStore();
    const bus = await openBus('memory://');
    const logger = createLogger({ service: 'bus-test', level: 'silent' });
    const relay = startOutboxRelay({ store, bus, logger });
    const seenInHandler: Array<{ traceId?: string; spanId?: string }> = [];
    const consumer = await createEventConsumer({
      bus,
      store,
      group: 'notifier',
      logger,
      handlers: {
        'payment.authorized': () => {
          const active = trace.getActiveSpan()?.spanContext();
          seenInHandler.push({ traceId: active?.traceId, spanId: active?.spanId });
        },
      },
    });

    const requestSpan = await trace.getTracer('test').startActiveSpan('POST /payments', async (span) => {
      await store.transaction((uow) => uow.publish(domainEvent(paymentAuthorizedV1, { scope: SCOPE, data: aPayment({ status: 'authorized' }) })));
      span.end();
      return span.spanContext();
    });

    await waitFor(() => seenInHandler.length === 1);
    const consumeSpan = await waitFor(() => exporter.getFinishedSpans().find((span) => span.name === 'consume payment.authorized'));
    const publishSpan = exporter.getFinishedSpans().find((span) => span.name === 'publish payment.authorized');
    expect(seenInHandler[0]?.traceId).toBe(requestSpan.traceId);
    expect(publishSpan?.kind).toBe(SpanKind.PRODUCER);
    expect(publishSpan?.parentSpanContext?.spanId).toBe(requestSpan.spanId);
    expect(consumeSpan.spanContext().traceId).toBe(requestSpan.traceId);
    expect(consumeSpan.parentSpanContext?.spanId).toBe(publishSpan?.spanContext().spanId);
    expect(seenInHandler[0]?.spanId).toBe(consumeSpan.spanContext().spanId);

    await consumer.stop();
    await relay.stop();
    await bus.close();
    await store.close();
  });

  it('when an event message is built inside a span, then its headers and envelope carry the W3C traceparent of its publish span, a child of that span', async () => {
    const { message, spanContext } = trace.getTracer('test').startActiveSpan('work', (span) => {
      const built = eventMessage(paymentAuthorizedV1, { scope: SCOPE, data: aPayment({ payment_id: 'pay_9', status: 'authorized' }) });
      span.end();
      return { message: built, spanContext: span.spanContext() };
    });

    const publishSpan = exporter
      .getFinishedSpans()
      .find((span) => span.name === 'publish payment.authorized' && span.parentSpanContext?.spanId === spanContext.spanId);
    expect(publishSpan).toBeDefined();
    const traceparent = `00-${spanContext.traceId}-${publishSpan?.spanContext().spanId}-01`;
    expect(message.headers).toMatchObject({ traceparent, 'event-type': 'payment.authorized' });
    expect(message.key).toBe('pay_9');
    const envelope = parseEnvelope(message.value);
    expect(envelope.trace).toEqual({ traceparent });
    expect(message.headers['event-id']).toBe(envelope.id);
  });

  it('when a domain event is built inside a span, then it carries no trace context and opens no span: event mappers stay pure, the unit of work adds the context', () => {
    const before = exporter.getFinishedSpans().length;
    const event = trace.getTracer('test').startActiveSpan('work', (span) => {
      const built = domainEvent(paymentAuthorizedV1, { scope: SCOPE, data: aPayment({ payment_id: 'pay_10', status: 'authorized' }) });
      span.end();
      return built;
    });

    expect(event.envelope.trace).toBeUndefined();
    expect(event).toMatchObject({ topic: paymentAuthorizedV1.topic, key: 'pay_10' });
    expect(
      exporter
        .getFinishedSpans()
        .slice(before)
        .map((span) => span.name),
    ).toEqual(['work']);
  });
});
