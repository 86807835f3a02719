import type { ForwardToImport, ImportEndpointAnswer, ImportSource, ProviderContext, ProviderPaymentMethod } from '../../domain/import-provider';
import { ProviderUnreachableError } from '../../domain/import-errors';
import { callPlatform } from '../platform-call';
import {
  forwardingForm,
  importAnswerOf,
  listQuery,
  parseListPage,
  parsePosition,
  platformErrorOf,
  PROVIDER_A_API_VERSION,
  shouldRetryOf,
  type ListPage,
} from './provider-a.mapper';

const CALL_OPTIONS = { errorOf: platformErrorOf, shouldRetryOf };

/**
 * A provider_a account opened with the merchant's secret key. Payment methods are streamed: one
 * customers page at a time, the first payment-methods page of the next `lookahead` customers
 * fetched in parallel, so memory holds a bounded number of pages whatever the account size.
 */
export class ProviderASource implements ImportSource {
  /** On every request: the key, and the pinned API version. */
  private readonly headers: Record<string, string>;

  constructor(
    apiKey: string,
    private readonly context: ProviderContext,
  ) {
    this.headers = { authorization: `Bearer ${apiKey}`, 'stripe-version': PROVIDER_A_API_VERSION };
  }

  async *paymentMethods(position: Record<string, unknown> | null, signal: AbortSignal): AsyncGenerator<ProviderPaymentMethod> {
    const resume = parsePosition(position);
    let customersAfter = resume?.customers_after ?? null;
    let firstCustomer = resume?.customer_index ?? 0;
    for (;;) {
      const customers = await this.list('/v1/customers', customersAfter, {}, signal);
      const windows: number[] = [];
      for (let w = firstCustomer; w < customers.data.length; w += this.context.lookahead) windows.push(w);
      const fetchWindow = (start: number) =>
        Promise.all(
          customers.data.slice(start, start + this.context.lookahead).map((customer, k) => {
            const index = start + k;
            const resumeHere = resume !== null && customersAfter === resume.customers_after && index === resume.customer_index;
            const methodsAfter = resumeHere ? resume.methods_after : null;
            return this.listMethods(customer.id, methodsAfter, signal).then((page) => ({
              customer: customer.id,
              index,
              methodsAfter,
              page,
              skip: resumeHere ? resume.method_index + 1 : 0,
            }));
          }),
        );
      let pending = windows.length > 0 ? fetchWindow(windows[0]!) : null;
      for (let i = 0; i < windows.length; i++) {
        const current = await pending!;
        // Fetch the next window while this one's payment methods are being forwarded.
        pending = i + 1 < windows.length ? fetchWindow(windows[i + 1]!) : null;
        pending?.catch(() => undefined);
        for (const entry of current) {
          let { page, methodsAfter, skip } = entry;
          for (;;) {
            for (let m = skip; m < page.data.length; m++) {
              const method = page.data[m]!;
              if (method.type !== undefined && method.type !== 'card') continue;
              yield {
                id: method.id,
                position: { customers_after: customersAfter, customer_index: entry.index, methods_after: methodsAfter, method_index: m },
              };
            }
            if (!page.has_more || page.data.length === 0) break;
            methodsAfter = page.data[page.data.length - 1]!.id;
            page = await this.listMethods(entry.customer, methodsAfter, signal);
            skip = 0;
          }
        }
      }
      if (!customers.has_more || customers.data.length === 0) return;
      customersAfter = customers.data[customers.data.length - 1]!.id;
      firstCustomer = 0;
    }
  }

  async forward(request: ForwardToImport, signal: AbortSignal): Promise<ImportEndpointAnswer> {
    const answer = await callPlatform(
      this.context,
      {
        url: `${this.context.baseUrl}/v1/forwarding/requests`,
        method: 'POST',
        headers: { ...this.headers, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': request.idempotencyKey },
        body: forwardingForm(request),
      },
      signal,
      CALL_OPTIONS,
    );
    return importAnswerOf(answer.body);
  }

  private listMethods(customerId: string, startingAfter: string | null, signal: AbortSignal): Promise<ListPage> {
    return this.list(`/v1/customers/${encodeURIComponent(customerId)}/payment_methods`, startingAfter, { type: 'card' }, signal);
  }

  private async list(path: string, startingAfter: string | null, extra: Record<string, string>, signal: AbortSignal): Promise<ListPage> {
    const answer = await callPlatform(
      this.context,
      { url: `${this.context.baseUrl}${path}?${listQuery(this.context.pageSize, startingAfter, extra)}`, method: 'GET', headers: this.headers },
      signal,
      CALL_OPTIONS,
    );
    try {
      return parseListPage(answer.body);
    } catch {
      throw new ProviderUnreachableError('The platform answered a list request with an unexpected shape.');
    }
  }
}
