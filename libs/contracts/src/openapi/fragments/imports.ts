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

const counts: JsonObject = {
  type: 'object',
  required: ['total', 'imported', 'updated', 'failed'],
  additionalProperties: false,
  properties: {
    total: { type: 'integer', minimum: 0, description: 'Payment methods found on the platform so far; final once the job ends.' },
    imported: { type: 'integer', minimum: 0, description: 'New tokens.' },
    updated: { type: 'integer', minimum: 0, description: 'Existing tokens (same business_key) whose card data was replaced.' },
    failed: { type: 'integer', minimum: 0, description: 'Payment methods not imported; see failures.' },
    imported_without_security_code: {
      type: 'integer',
      minimum: 0,
      description:
        'Of imported + updated, the tokens without a security code: the platform had none left to send (used up by an earlier forward, or stored longer than its lifetime). The card is imported; a payment that needs the security code must collect it again.',
    },
  },
};

const PREPARING = {
  id: '019ab2c4-5b6c-7d8e-9f0a-1b2c3d4e5f01',
  object: 'token_import',
  livemode: false,
  provider: 'provider_a',
  state: 'preparing',
  created_at: '2026-11-23T11:00:00.000Z',
  started_at: null,
  finished_at: null,
  counts: { total: 0, imported: 0, updated: 0, failed: 0, imported_without_security_code: 0 },
  failure_reason: null,
  failure_detail: null,
  failures: [],
};
const FINISHED = {
  ...PREPARING,
  state: 'finished',
  started_at: '2026-11-23T11:00:01.000Z',
  finished_at: '2026-11-23T11:04:30.000Z',
  counts: { total: 1250, imported: 1180, updated: 60, failed: 10, imported_without_security_code: 1240 },
  failures: [
    { reason: 'invalid_card_number', count: 7 },
    { reason: 'card_expired', count: 3 },
  ],
};

/** Automatic import jobs (importer service). */
export const importsFragment: OpenApiFragment = {
  tags: [{ name: 'Imports', description: 'Import every card payment method of a third-party platform account as tokens.' }],
  paths: {
    '/tokens/imports': {
      post: {
        tags: ['Imports'],
        operationId: 'createTokenImport',
        summary: 'Start an automatic import job',
        description: [
          'The platform key is used only for this job: stored encrypted while it runs, erased when it ends, never returned.',
          "The job lists the account's customers and their card payment methods and has the platform forward each card to /cde-import;",
          'each token keeps the payment-method id as business_key (a second import updates those tokens instead of duplicating them).',
          'import.completed (or import.failed) is sent as a webhook when the job ends.',
        ].join(' '),
        security: [{ ApiKey: [] }],
        requestBody: jsonRequest('CreateTokenImportRequest', { provider: 'provider_a', provider_a: { api_key: 'sk_live_platform_key_…' } }),
        responses: {
          '201': jsonResponse('The job, in state preparing.', 'TokenImport', PREPARING),
          ...commonErrorResponses,
          '422': problemResponse(
            'unknown_provider (field provider), provider_credentials_required or provider_credentials_invalid (field provider_a or provider_a.api_key).',
          ),
        },
      },
      get: {
        tags: ['Imports'],
        operationId: 'listTokenImports',
        summary: "List the merchant's import jobs, newest first",
        security: [{ ApiKey: [] }],
        parameters: pageParameters,
        responses: { '200': jsonResponse('A page of import jobs.', listOf('TokenImport'), pageOf([FINISHED])), ...commonErrorResponses },
      },
    },
    '/tokens/imports/{import_id}': {
      get: {
        tags: ['Imports'],
        operationId: 'getTokenImport',
        summary: 'Read an import job and its progress',
        security: [{ ApiKey: [] }],
        parameters: [{ name: 'import_id', in: 'path', required: true, schema: schemaRef('ObjectId') }],
        responses: {
          '200': jsonResponse('The job.', 'TokenImport', FINISHED),
          ...commonErrorResponses,
          '404': problemResponse("import_not_found: unknown id, another merchant's job or a job of the other mode."),
        },
      },
    },
  },
  components: {
    schemas: {
      CreateTokenImportRequest: {
        type: 'object',
        required: ['provider'],
        properties: {
          provider: { type: 'string', enum: ['provider_a'], description: 'The source platform.' },
          provider_a: {
            type: 'object',
            required: ['api_key'],
            additionalProperties: false,
            description: 'Credentials for provider_a, required when provider is provider_a.',
            properties: {
              api_key: { type: 'string', minLength: 1, maxLength: 512, description: 'The platform secret key, used only for this import.', writeOnly: true },
            },
          },
        },
      },
      TokenImport: {
        type: 'object',
        required: [
          'id',
          'object',
          'livemode',
          'provider',
          'state',
          'created_at',
          'started_at',
          'finished_at',
          'counts',
          'failure_reason',
          'failure_detail',
          'failures',
        ],
        additionalProperties: false,
        properties: {
          id: schemaRef('ObjectId'),
          object: { type: 'string', const: 'token_import' },
          livemode: {
            type: 'boolean',
            description: 'true for a job created with a live key: its tokens are created in live mode. A key of the other mode does not see the job (404).',
          },
          provider: { type: 'string' },
          state: {
            type: 'string',
            enum: ['preparing', 'running', 'finished', 'failed'],
            description: 'preparing → running → finished; failed when the platform rejects the key or stays unreachable after retries.',
          },
          created_at: schemaRef('Timestamp'),
          started_at: { oneOf: [schemaRef('Timestamp'), { type: 'null' }] },
          finished_at: { oneOf: [schemaRef('Timestamp'), { type: 'null' }] },
          counts,
          failure_reason: {
            type: ['string', 'null'],
            description:
              "Why the job failed: provider_authentication_failed, provider_unreachable, forwarding_not_enabled (the platform has not enabled forwarding to this service's /cde-import for the account), import_credential_unavailable, import_credential_rejected or credentials_unreadable.",
          },
          failure_detail: {
            type: ['string', 'null'],
            description: 'What to do about the failure, e.g. what to ask the platform for; null otherwise. Never a secret.',
          },
          failures: {
            type: 'array',
            description:
              "Why single payment methods were not imported (the vault's problem code, payment_method_unavailable, import_endpoint_unavailable, not_confirmed), with counts. Never card data.",
            items: {
              type: 'object',
              required: ['reason', 'count'],
              additionalProperties: false,
              properties: { reason: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
            },
          },
        },
      },
    },
  },
};
