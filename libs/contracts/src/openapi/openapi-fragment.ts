/** A JSON object of an OpenAPI document (kept loose: fragments are data, checked by tests). */
import { MAX_AMOUNT } from '../money/currencies';
import { prose } from '../prose';
export type JsonObject = { [key: string]: unknown };

/**
 * One area's share of the merchant API document: its paths, the component schemas they use and
 * optionally tags. Fragments are merged by buildOpenApiDocument; a path+method or a component
 * name defined twice is an error at build time.
 */
export interface OpenApiFragment {
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, JsonObject>>;
  components?: {
    schemas?: Record<string, JsonObject>;
    parameters?: Record<string, JsonObject>;
    responses?: Record<string, JsonObject>;
    securitySchemes?: Record<string, JsonObject>;
  };
}

/** `{ $ref: '#/components/schemas/<name>' }` */
export const schemaRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/** A JSON response whose body is the named component schema (or an inline schema), with its example when given. */
export function jsonResponse(description: string, schema: JsonObject | string, example?: unknown): JsonObject {
  return { description, content: { 'application/json': jsonMedia(schema, example) } };
}

/** A required JSON request body of the named component schema (or an inline schema), with its example. */
export function jsonRequest(schema: JsonObject | string, example?: unknown, required = true): JsonObject {
  return { required, content: { 'application/json': jsonMedia(schema, example) } };
}

function jsonMedia(schema: JsonObject | string, example: unknown): JsonObject {
  return { schema: typeof schema === 'string' ? schemaRef(schema) : schema, ...(example === undefined ? {} : { example }) };
}

/** A list page around example items. */
export function pageOf(items: unknown[], hasMore = false): JsonObject {
  return { object: 'list', data: items, has_more: hasMore, next_cursor: hasMore ? ((items.at(-1) as { id?: string } | undefined)?.id ?? null) : null };
}

/** An error response: application/problem+json with the Problem schema. */
export function problemResponse(description: string): JsonObject {
  return { description, content: { 'application/problem+json': { schema: schemaRef('Problem') } } };
}

/** The list envelope around items of the named schema. */
export function listOf(itemSchema: string): JsonObject {
  return {
    type: 'object',
    required: ['object', 'data', 'has_more', 'next_cursor'],
    additionalProperties: false,
    properties: {
      object: { type: 'string', const: 'list' },
      data: { type: 'array', items: schemaRef(itemSchema) },
      has_more: { type: 'boolean' },
      next_cursor: { type: ['string', 'null'], description: 'Pass as starting_after to get the next page.' },
    },
  };
}

/** The usual error responses of a merchant endpoint, to spread into `responses`. */
export const commonErrorResponses: Record<string, JsonObject> = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '403': { $ref: '#/components/responses/Forbidden' },
  '413': { $ref: '#/components/responses/PayloadTooLarge' },
  '415': { $ref: '#/components/responses/UnsupportedMediaType' },
  '422': { $ref: '#/components/responses/ValidationFailed' },
  '429': { $ref: '#/components/responses/TooManyRequests' },
  '503': { $ref: '#/components/responses/ServiceUnavailable' },
};

/** Query parameters of every list endpoint. */
export const pageParameters: JsonObject[] = [
  { $ref: '#/components/parameters/Limit' },
  { $ref: '#/components/parameters/StartingAfter' },
  { $ref: '#/components/parameters/Order' },
];

/** `livemode` of a merchant object: true when `what` live mode (a live key's), false in test mode. */
export const livemodeProperty = (what: string): JsonObject => ({
  type: 'boolean',
  description: `true when ${what} live mode (a live key's), false in test mode.`,
});

/**
 * An amount a merchant sends: minor units of the currency by its ISO 4217 exponent, at most twelve digits.
 * `what` says which amount it is.
 */
export const requestAmount = (what: string): JsonObject => ({
  type: 'integer',
  minimum: 1,
  maximum: MAX_AMOUNT,
  description:
    `${what} In minor units of the currency by its ISO 4217 exponent (cents for EUR, yen for JPY, fils for KWD: 1234 is KWD 1.234), at most ` +
    `${MAX_AMOUNT} (twelve digits; above it 422 amount_too_large). Each processor is sent the amount in its own unit (ISK with two decimals ` +
    'at Stripe and Adyen, CLP with two at Adyen and Checkout.com, CVE and IDR with none at Adyen, MGA with none at Stripe); an amount it cannot ' +
    'take is refused before anything is sent, 422 amount_not_supported.',
});

/** The refusals of an amount, for the 422 descriptions of the routes that take one. */
export const AMOUNT_REFUSALS = prose(
  'amount_too_large (above 999999999999, twelve digits); amount_not_supported (the processor cannot take the amount, nothing was sent: `detail` ' +
    'names its rule, such as a last digit other than 0 in KWD, BHD, JOD, OMR or TND at Stripe and Checkout.com, CVE or IDR with cents at Adyen, ' +
    "below Stripe's minimum charge, more than eight digits of Stripe's units or nine of Checkout.com's)",
);
