import { commonErrorResponses, jsonResponse, listOf, pageParameters, problemResponse, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

const header = (name: string, required: boolean, description: string, schema: JsonObject = { type: 'string' }): JsonObject => ({ name, in: 'header', required, description, schema });
const adminErrors: Record<string, JsonObject> = {
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': { $ref: '#/components/responses/NotFound' },
  '422': { $ref: '#/components/responses/ValidationFailed' },
};
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
          'JSON: substitution happens in the parsed document, which is serialised again. Inside a string a placeholder is text (month "03", year "2030");',
          'a bare placeholder standing as a JSON value is typed: month and year integers (3, 2030), account number and security code strings.',
          'For the Checkout.com destinations a quoted whole-value expiry placeholder is also sent as an integer, as that API expects.',
          'Form: values holding placeholders are URL-encoded after substitution; other fields keep their bytes and order.',
          'The answer is the destination\'s status, body and content type; PANs in it are masked. X-Vaultline-Added-Ms gives the time the service added.',
        ].join(' '),
        security: [{ ApiKey: [] }],
        parameters: [
          header('X-SERVICE-TOKEN', true, 'Token id (UUID) whose card data fills the placeholders.', { type: 'string', format: 'uuid' }),
          header('X-DESTINATION-URL', true, 'Full URL of an allowed destination (built-in catalog, FORWARD_EXTRA_DESTINATIONS, or added for the merchant).', { type: 'string', format: 'uri' }),
          header('X-API-KEY-NAME', false, 'Name of the header that carries the destination credential (with X-API-KEY-VALUE). Also accepted as X-API-KEY-<PROVIDER>-NAME.'),
          header('X-API-KEY-VALUE', false, 'Value of that credential header. Also accepted as X-API-KEY-<PROVIDER>-VALUE.'),
          header('Authorization', false, 'Alternatively, a credential passed on to the destination as is.'),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { type: 'object', description: 'The destination\'s own JSON body, with placeholders.' } },
            'application/x-www-form-urlencoded': { schema: { type: 'object', description: 'The destination\'s own form body, with placeholders.' } },
          },
        },
        responses: {
          default: { description: 'The destination\'s answer: its status, body (PANs masked) and content type.', headers: { 'X-Vaultline-Added-Ms': { schema: { type: 'string' }, description: 'Milliseconds the service added to the destination\'s time.' } } },
          ...commonErrorResponses,
          '403': problemResponse('destination_not_allowed: the destination is not allowed, or resolves to a private address. Nothing was sent.'),
          '404': problemResponse('token_not_found: unknown token or another merchant\'s token. Nothing was sent.'),
          '410': problemResponse('token_deleted. Nothing was sent.'),
          '422': problemResponse('security_code_expired (older than 15 minutes), security_code_unavailable, or invalid headers. Nothing was sent.'),
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
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('AddForwardDestinationRequest') } } },
        responses: { '201': jsonResponse('The destination.', 'ForwardDestination'), ...adminErrors },
      },
      get: {
        tags: ['Admin'],
        operationId: 'listForwardDestinations',
        summary: 'List the destinations added for a merchant',
        security: [{ AdminKey: [] }],
        parameters: [merchantQuery, ...pageParameters],
        responses: { '200': jsonResponse('A page of destinations.', listOf('ForwardDestination')), ...adminErrors },
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
        properties: { merchant_id: schemaRef('ObjectId'), url: { type: 'string', format: 'uri', maxLength: 2048 } },
      },
      ForwardDestination: {
        type: 'object',
        required: ['id', 'object', 'merchant_id', 'url', 'created_at'],
        additionalProperties: false,
        properties: { id: schemaRef('ObjectId'), object: { const: 'forward_destination' }, merchant_id: schemaRef('ObjectId'), url: { type: 'string' }, created_at: schemaRef('Timestamp') },
      },
    },
  },
};
