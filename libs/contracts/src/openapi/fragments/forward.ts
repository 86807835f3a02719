import { PROCESSOR_MANIFESTS } from '../../processors/processor-destinations';
import {
  commonErrorResponses,
  jsonRequest,
  jsonResponse,
  listOf,
  pageOf,
  pageParameters,
  problemResponse,
  schemaRef,
  type JsonObject,
  type OpenApiFragment,
} from '../openapi-fragment';

const header = (name: string, required: boolean, description: string, schema: JsonObject = { type: 'string' }): JsonObject => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});
const adminErrors: Record<string, JsonObject> = {
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': { $ref: '#/components/responses/NotFound' },
  '422': { $ref: '#/components/responses/ValidationFailed' },
};
const DESTINATION = {
  id: '019ab2c4-2c3d-7e4f-8a5b-6c7d8e9f0a01',
  object: 'forward_destination',
  merchant_id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e11',
  url: 'https://api.acquirer.example/v2/authorizations',
  card_fields: { 'card.pan': 'account_number', 'card.expiry.month': 'expiration_month', 'card.expiry.year': 'expiration_year', 'card.cvv': 'security_code' },
  mode: 'test',
  created_at: '2026-11-21T09:00:00.000Z',
};
/** Each processor's card fields, as its manifest declares them (Adyen v69 paymentMethod.number, … ; Stripe card[number], …). */
const catalogCardFields = PROCESSOR_MANIFESTS.filter((manifest) => Object.keys(manifest.card_fields).length > 0)
  .map((manifest) => {
    const profiles = Object.entries(manifest.card_fields);
    return `${manifest.display_name} ${profiles.map(([purpose, profile]) => `${Object.keys(profile!.fields).join(', ')}${profiles.length > 1 ? ` (${purpose})` : ''}`).join(' and ')}`;
  })
  .join('; ');
const displayNames = (test: (manifest: (typeof PROCESSOR_MANIFESTS)[number]) => boolean) =>
  PROCESSOR_MANIFESTS.filter(test)
    .map((manifest) => manifest.display_name)
    .join(', ');
const integerExpiry = displayNames((manifest) => Object.values(manifest.card_fields).some((profile) => profile!.typing === 'integer-expiry'));
const bothModes = displayNames((manifest) => manifest.hosts.some((host) => host.mode === 'any' && Object.keys(manifest.card_fields).length > 0));

const merchantQuery: JsonObject = { name: 'merchant_id', in: 'query', required: true, schema: schemaRef('ObjectId') };

/** POST /forward and the operator's per-merchant destinations (forwarder service). */
export const forwardFragment: OpenApiFragment = {
  tags: [{ name: 'Forwarding', description: 'Send a request to an allowed destination with card-data placeholders filled from a token.' }],
  paths: {
    '/forward': {
      post: {
        tags: ['Forwarding'],
        operationId: 'forward',
        summary: 'Fill card-data placeholders and forward the request to an allowed destination',
        description: [
          'Placeholders {{ account_number }}, {{ expiration_month }}, {{ expiration_year }} and {{ security_code }} (spaces inside the braces optional) are replaced in the body only, never in the URL or headers.',
          'A placeholder may stand only as the whole value of one of the card fields the destination declares, each field with its own placeholder:',
          `${catalogCardFields}.`,
          'Anywhere else (inside other text, in another field, in a key) the request is refused with 422 placeholder_not_allowed naming the field, and nothing is sent.',
          'JSON: substitution happens in the parsed document, which is serialised again. A quoted placeholder becomes text (month "03", year "2030");',
          'a bare placeholder standing as a JSON value is typed: month and year integers (3, 2030), account number and security code strings.',
          ...(integerExpiry ? [`For the ${integerExpiry} destinations a quoted expiry placeholder is also sent as an integer, as that API expects.`] : []),
          'Form: card fields are URL-encoded after substitution; other fields keep their bytes and order. A body with no placeholder is sent as it came, without reading the token.',
          `Test API keys forward only to test endpoints and live keys only to live endpoints of the catalog${bothModes ? ` (${bothModes} serves both modes on one URL and is open to both)` : ''}.`,
          "The answer is the destination's status, body and content type; every Luhn-valid 13-19 digit sequence in it is masked. X-Vaultline-Added-Ms gives the time the service added.",
        ].join(' '),
        security: [{ ApiKey: [] }],
        parameters: [
          header('X-SERVICE-TOKEN', true, 'Token id (UUID) whose card data fills the placeholders.', { type: 'string', format: 'uuid' }),
          header('X-DESTINATION-URL', true, 'Full URL of an allowed destination (built-in catalog, FORWARD_EXTRA_DESTINATIONS, or added for the merchant).', {
            type: 'string',
            format: 'uri',
          }),
          header(
            'X-API-KEY-NAME',
            false,
            'Name of the header that carries the destination credential (with X-API-KEY-VALUE). Also accepted as X-API-KEY-<PROVIDER>-NAME.',
          ),
          header('X-API-KEY-VALUE', false, 'Value of that credential header. Also accepted as X-API-KEY-<PROVIDER>-VALUE.'),
          header('Authorization', false, 'Alternatively, a credential passed on to the destination as is.'),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', description: "The destination's own JSON body, with placeholders." },
              example: {
                amount: { currency: 'EUR', value: 1999 },
                reference: 'order-1001',
                merchantAccount: 'ShopECOM',
                paymentMethod: {
                  type: 'scheme',
                  number: '{{ account_number }}',
                  expiryMonth: '{{ expiration_month }}',
                  expiryYear: '{{ expiration_year }}',
                  cvc: '{{ security_code }}',
                },
                shopperInteraction: 'Ecommerce',
              },
            },
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', description: "The destination's own form body, with placeholders." },
              example: {
                type: 'card',
                'card[number]': '{{ account_number }}',
                'card[exp_month]': '{{ expiration_month }}',
                'card[exp_year]': '{{ expiration_year }}',
                'card[cvc]': '{{ security_code }}',
              },
            },
          },
        },
        responses: {
          default: {
            description: "The destination's answer: its status, body (PANs masked) and content type.",
            headers: { 'X-Vaultline-Added-Ms': { schema: { type: 'string' }, description: "Milliseconds the service added to the destination's time." } },
          },
          ...commonErrorResponses,
          '403': problemResponse(
            'destination_not_allowed: the destination is not allowed, or resolves to a private address; destination_not_allowed_in_test_mode: a live endpoint with a test API key; destination_not_allowed_in_live_mode: a test endpoint with a live API key. Nothing was sent.',
          ),
          '404': problemResponse("token_not_found: unknown token or another merchant's token. Nothing was sent."),
          '410': problemResponse('token_deleted. Nothing was sent.'),
          '422': problemResponse(
            "placeholder_not_allowed (a placeholder outside the destination's card fields; field names it), body_too_deep (objects and arrays nested more than 64 levels), security_code_expired (older than 15 minutes), security_code_unavailable, or invalid headers. Nothing was sent.",
          ),
          '502': problemResponse('destination_unreachable or destination_response_too_large.'),
          '504': problemResponse('destination_timeout, with phase connect or response.'),
        },
      },
    },
    '/admin/forwarder/destinations': {
      post: {
        tags: ['Admin'],
        operationId: 'addForwardDestination',
        summary: 'Allow a destination URL for one merchant (exact scheme, host, port and path)',
        security: [{ AdminKey: [] }],
        requestBody: jsonRequest('AddForwardDestinationRequest', {
          merchant_id: DESTINATION.merchant_id,
          url: DESTINATION.url,
          card_fields: DESTINATION.card_fields,
          mode: 'test',
        }),
        responses: { '201': jsonResponse('The destination.', 'ForwardDestination', DESTINATION), ...adminErrors },
      },
      get: {
        tags: ['Admin'],
        operationId: 'listForwardDestinations',
        summary: 'List the destinations added for a merchant',
        security: [{ AdminKey: [] }],
        parameters: [merchantQuery, ...pageParameters],
        responses: { '200': jsonResponse('A page of destinations.', listOf('ForwardDestination'), pageOf([DESTINATION])), ...adminErrors },
      },
    },
    '/admin/forwarder/destinations/{destination_id}': {
      delete: {
        tags: ['Admin'],
        operationId: 'removeForwardDestination',
        summary: 'Remove a merchant destination',
        security: [{ AdminKey: [] }],
        parameters: [{ name: 'destination_id', in: 'path', required: true, schema: schemaRef('ObjectId') }, merchantQuery],
        responses: { '204': { description: 'Removed.' }, ...adminErrors },
      },
    },
  },
  components: {
    schemas: {
      AddForwardDestinationRequest: {
        type: 'object',
        required: ['merchant_id', 'url'],
        additionalProperties: false,
        properties: {
          merchant_id: schemaRef('ObjectId'),
          url: { type: 'string', format: 'uri', maxLength: 2048 },
          card_fields: schemaRef('ForwardCardFields'),
          mode: { enum: ['test', 'live', null], description: 'Only API keys of this mode may forward to it; null or absent: both modes.' },
        },
      },
      ForwardCardFields: {
        type: ['object', 'null'],
        description:
          "The fields that may hold a placeholder, each with the one placeholder it takes: a JSON field as its key path joined by dots (paymentMethod.number), a form field by its name (card[number]). Null or absent: the card fields of the catalog entry whose path ends the destination's path (/v69/payments, /payments, /v1/payment_methods), or none.",
        additionalProperties: { enum: ['account_number', 'expiration_month', 'expiration_year', 'security_code'] },
      },
      ForwardDestination: {
        type: 'object',
        required: ['id', 'object', 'merchant_id', 'url', 'card_fields', 'mode', 'created_at'],
        additionalProperties: false,
        properties: {
          id: schemaRef('ObjectId'),
          object: { type: 'string', const: 'forward_destination' },
          merchant_id: schemaRef('ObjectId'),
          url: { type: 'string' },
          card_fields: schemaRef('ForwardCardFields'),
          mode: { enum: ['test', 'live', null] },
          created_at: schemaRef('Timestamp'),
        },
      },
    },
  },
};
