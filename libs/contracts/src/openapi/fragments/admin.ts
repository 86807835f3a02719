import {
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

const security = [{ AdminKey: [] }];
const errors: Record<string, JsonObject> = {
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': { $ref: '#/components/responses/NotFound' },
  '422': { $ref: '#/components/responses/ValidationFailed' },
  '429': {
    ...problemResponse(
      'too_many_refusals: admin requests from this client address were refused (no key, a wrong key) ADMIN_REFUSALS_PER_MINUTE times in its minute; every admin request from it, a right key included, is refused until the minute ends. Retry-After says when.',
    ),
    headers: { 'Retry-After': { description: 'Seconds until the address may send admin requests again.', schema: { type: 'integer', minimum: 1 } } },
  },
};
const merchantId = { name: 'merchant_id', in: 'path', required: true, schema: schemaRef('ObjectId') };

const apiKeyProperties: Record<string, JsonObject> = {
  id: schemaRef('ObjectId'),
  merchant_id: schemaRef('ObjectId'),
  prefix: { type: 'string', description: 'The first 12 characters, for recognising a key. The key itself is shown once.' },
  mode: { type: 'string', enum: ['test', 'live'] },
  scopes: { type: 'array', items: { type: 'string' } },
  label: { type: ['string', 'null'] },
  created_at: schemaRef('Timestamp'),
  revoked_at: { type: ['string', 'null'], format: 'date-time' },
  expires_at: { type: ['string', 'null'], format: 'date-time' },
  rolled_from: { type: ['string', 'null'], format: 'uuid', description: "A key made by rolling another: that key's id; null otherwise." },
};
const operatorId = { name: 'operator_id', in: 'path', required: true, schema: schemaRef('ObjectId') };
const operatorProperties: Record<string, JsonObject> = {
  id: schemaRef('ObjectId'),
  name: { type: 'string', description: 'Who the operator is: the name every audit entry of this key carries.' },
  prefix: { type: 'string', description: 'The first 12 characters of the admin key. The key itself is shown once.' },
  created_at: schemaRef('Timestamp'),
  revoked_at: { type: ['string', 'null'], format: 'date-time' },
};
const operatorRequired = ['id', 'name', 'prefix', 'created_at', 'revoked_at'];

const apiKeyRequired = ['id', 'merchant_id', 'prefix', 'mode', 'scopes', 'label', 'created_at', 'revoked_at', 'expires_at'];

const OPERATOR = { id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e01', name: 'ada', prefix: 'admin_Q3vX9k', created_at: '2026-11-20T08:00:00.000Z', revoked_at: null };
const MERCHANT = {
  id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e11',
  name: 'Corner Shop',
  card_data_access: false,
  created_at: '2026-11-20T08:05:00.000Z',
  rate_limit: null,
};
const API_KEY = {
  id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e21',
  merchant_id: MERCHANT.id,
  prefix: 'sk_test_7Hq2',
  mode: 'test',
  scopes: ['merchant'],
  label: 'shop backend',
  created_at: '2026-11-20T08:05:00.000Z',
  revoked_at: null,
  expires_at: null,
};
const AUDIT_ENTRY = {
  id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e31',
  at: '2026-11-20T08:05:00.120Z',
  operator_id: OPERATOR.id,
  operator_name: 'ada',
  method: 'POST',
  path: '/admin/merchants',
  merchant_id: null,
  mode: null,
  via: 'admin_key',
  session_id_prefix: null,
  key_id: null,
  role: null,
  target_ids: [MERCHANT.id],
  status: 201,
  request_id: '0b6f2c1e-5d4a-4f3b-9c8d-7e6f5a4b3c2d',
  client_address: '203.0.113.7',
  count: 1,
};

const HEALTH = {
  object: 'service_health',
  status: 'ok',
  checked_at: '2026-11-26T10:00:00.000Z',
  components: [
    { name: 'gateway-store', status: 'ok', latency_ms: 1 },
    { name: 'vault', status: 'ok', latency_ms: 3 },
    { name: 'payment-orchestrator', status: 'ok', latency_ms: 2 },
  ],
};
const ROTATION = {
  id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e61',
  to_version: 2,
  state: 'running',
  total: 12000,
  rewrapped: 4500,
  remaining: 7500,
  started_at: '2026-11-26T09:30:00.000Z',
  completed_at: null,
};

/** The operator API of the gateway: merchants and their API keys. */
export const adminFragment: OpenApiFragment = {
  tags: [
    {
      name: 'Admin',
      description:
        'Operator API (X-Admin-Key: a named operator\'s key; ADMIN_API_KEY is the operator "bootstrap"): operators, the audit of admin actions, merchants and API keys. Disabled (404) when ADMIN_API_KEY is unset.',
    },
  ],
  paths: {
    '/admin/operators': {
      post: {
        tags: ['Admin'],
        operationId: 'createOperator',
        summary: 'Create a named operator with its own admin key (shown once)',
        security,
        requestBody: jsonRequest('CreateOperatorRequest', { name: 'ada' }),
        responses: {
          '201': jsonResponse('The operator and its admin key, in clear this one time.', 'OperatorWithAdminKey', {
            ...OPERATOR,
            admin_key: 'admin_Q3vX9k2LmN8pR4sT6uW1yZ0aB5cD7eF3',
          }),
          ...errors,
          '409': problemResponse('The name is taken (operator_name_taken).'),
        },
      },
      get: {
        tags: ['Admin'],
        operationId: 'listOperators',
        summary: 'List operators (prefixes only, never the keys)',
        security,
        parameters: pageParameters,
        responses: { '200': jsonResponse('A page of operators.', listOf('Operator'), pageOf([OPERATOR])), ...errors },
      },
    },
    '/admin/operators/{operator_id}': {
      delete: {
        tags: ['Admin'],
        operationId: 'revokeOperator',
        summary: "Revoke an operator's admin key; it stops working at once",
        security,
        parameters: [operatorId],
        responses: {
          '200': jsonResponse('The revoked operator.', 'Operator', { ...OPERATOR, revoked_at: '2026-11-24T09:00:00.000Z' }),
          ...errors,
          '409': problemResponse('Already revoked (operator_revoked).'),
        },
      },
    },
    '/admin/audit': {
      get: {
        tags: ['Admin'],
        operationId: 'listAdminAudit',
        summary:
          'The append-only log of admin requests and of changes made through dashboard sessions, newest first: who, what, when, outcome (never request bodies)',
        description:
          'Every /admin request (refused ones too), and every change (any method but GET and HEAD) a dashboard session made on the merchant API, with its sign-in, mode switch and sign-out. The filters are combined with AND.',
        security,
        parameters: [
          ...pageParameters.filter((p) => p.name !== 'order'),
          { name: 'operator_id', in: 'query', required: false, schema: schemaRef('ObjectId') },
          { name: 'merchant_id', in: 'query', required: false, description: "Entries of this merchant's dashboard sessions.", schema: schemaRef('ObjectId') },
          { name: 'via', in: 'query', required: false, schema: { type: 'string', enum: ['admin_key', 'dashboard_session', 'api_key'] } },
          {
            name: 'session_id_prefix',
            in: 'query',
            required: false,
            description: "One dashboard session's entries.",
            schema: { type: 'string', pattern: '^[0-9a-f]{12}$' },
          },
          { name: 'key_id', in: 'query', required: false, schema: schemaRef('ObjectId') },
          { name: 'role', in: 'query', required: false, schema: { type: 'string', enum: ['merchant', 'dashboard', 'operator'] } },
        ],
        responses: { '200': jsonResponse('A page of audit entries.', listOf('AdminAuditEntry'), pageOf([AUDIT_ENTRY])), ...errors },
      },
    },
    '/admin/health': {
      get: {
        tags: ['Admin'],
        operationId: 'getServiceHealth',
        summary: "Every component's health: the gateway's store and each service's /health, with its latency",
        description: 'Always 200 (unlike /ready): `status` is `degraded` when a component did not answer, and the component says `unavailable`.',
        security,
        responses: { '200': jsonResponse('The components, checked now.', 'ServiceHealth', HEALTH), ...errors },
      },
    },
    '/admin/vault/key-status': {
      get: {
        tags: ['Admin'],
        operationId: 'getKeyStatus',
        summary: "The vault's key-encryption keys: the active version and the versions its ring holds",
        security,
        responses: { '200': jsonResponse('The key status.', 'KeyStatus', { object: 'key_status', active_version: 2, versions: [1, 2] }), ...errors },
      },
    },
    '/admin/vault/key-rotations': {
      get: {
        tags: ['Admin'],
        operationId: 'listKeyRotations',
        summary: 'The KEK rotations started with POST /admin/vault/key-rotations, newest first, each with the data keys it still has to re-wrap',
        security,
        parameters: pageParameters,
        responses: { '200': jsonResponse('A page of rotations.', listOf('KeyRotation'), pageOf([ROTATION])), ...errors },
      },
    },
    '/admin/vault/key-rotations/{rotation_id}': {
      get: {
        tags: ['Admin'],
        operationId: 'getKeyRotation',
        summary: "One rotation's progress",
        security,
        parameters: [{ name: 'rotation_id', in: 'path', required: true, schema: schemaRef('ObjectId') }],
        responses: { '200': jsonResponse('The rotation.', 'KeyRotation', ROTATION), ...errors },
      },
    },
    '/admin/merchants': {
      post: {
        tags: ['Admin'],
        operationId: 'createMerchant',
        summary: 'Create a merchant with a first API key (shown once)',
        security,
        requestBody: jsonRequest('CreateMerchantRequest', { name: 'Corner Shop', card_data_access: false }),
        responses: {
          '201': jsonResponse('The merchant and its first API key, in clear this one time.', 'MerchantWithApiKey', {
            ...MERCHANT,
            api_key: 'sk_test_7Hq2mK9xP4rT8vW2yB6dF1hJ5nL3qS0u',
          }),
          ...errors,
        },
      },
      get: {
        tags: ['Admin'],
        operationId: 'listMerchants',
        summary: 'List merchants, newest first',
        security,
        parameters: pageParameters,
        responses: { '200': jsonResponse('A page of merchants.', listOf('Merchant'), pageOf([MERCHANT])), ...errors },
      },
    },
    '/admin/merchants/{merchant_id}': {
      get: {
        tags: ['Admin'],
        operationId: 'getMerchant',
        summary: 'Retrieve a merchant',
        security,
        parameters: [merchantId],
        responses: { '200': jsonResponse('The merchant.', 'Merchant', MERCHANT), ...errors },
      },
      patch: {
        tags: ['Admin'],
        operationId: 'updateMerchant',
        summary: 'Change a merchant: its request rate per API key (rate_limit; null goes back to RATE_LIMIT_PER_SECOND and RATE_LIMIT_BURST)',
        security,
        parameters: [merchantId],
        requestBody: jsonRequest('UpdateMerchantRequest', { rate_limit: { per_second: 50, burst: 100 } }),
        responses: { '200': jsonResponse('The merchant.', 'Merchant', { ...MERCHANT, rate_limit: { per_second: 50, burst: 100 } }), ...errors },
      },
    },
    '/admin/merchants/{merchant_id}/api-keys': {
      post: {
        tags: ['Admin'],
        operationId: 'createApiKey',
        summary: 'Issue another API key for a merchant (shown once)',
        security,
        parameters: [merchantId],
        requestBody: jsonRequest('CreateApiKeyRequest', { mode: 'test', label: 'shop backend' }, false),
        responses: {
          '201': jsonResponse('The key, in clear this one time.', 'ApiKeyWithSecret', { ...API_KEY, api_key: 'sk_test_7Hq2mK9xP4rT8vW2yB6dF1hJ5nL3qS0u' }),
          ...errors,
        },
      },
      get: {
        tags: ['Admin'],
        operationId: 'listApiKeys',
        summary: "List a merchant's API keys (prefixes only, never the keys)",
        security,
        parameters: [merchantId, ...pageParameters],
        responses: { '200': jsonResponse('A page of API keys.', listOf('ApiKey'), pageOf([API_KEY])), ...errors },
      },
    },
    '/admin/merchants/{merchant_id}/api-keys/{key_id}': {
      delete: {
        tags: ['Admin'],
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key; it stops working at once',
        security,
        parameters: [merchantId, { name: 'key_id', in: 'path', required: true, schema: schemaRef('ObjectId') }],
        responses: {
          '200': jsonResponse('The revoked key.', 'ApiKey', { ...API_KEY, revoked_at: '2026-11-24T09:00:00.000Z' }),
          ...errors,
          '409': problemResponse('Already revoked.'),
        },
      },
    },
  },
  components: {
    schemas: {
      CreateOperatorRequest: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 100 } },
      },
      Operator: { type: 'object', required: operatorRequired, additionalProperties: false, properties: operatorProperties },
      OperatorWithAdminKey: {
        type: 'object',
        required: [...operatorRequired, 'admin_key'],
        additionalProperties: false,
        properties: { ...operatorProperties, admin_key: { type: 'string', pattern: '^admin_[0-9A-Za-z]{32}$' } },
      },
      AdminAuditEntry: {
        type: 'object',
        required: [
          'id',
          'at',
          'operator_id',
          'operator_name',
          'merchant_id',
          'mode',
          'via',
          'session_id_prefix',
          'key_id',
          'role',
          'method',
          'path',
          'target_ids',
          'status',
          'request_id',
          'client_address',
          'count',
        ],
        additionalProperties: false,
        properties: {
          id: schemaRef('ObjectId'),
          at: schemaRef('Timestamp'),
          operator_id: { type: ['string', 'null'], description: "Null when the admin key was missing or refused, and for a merchant's dashboard session." },
          operator_name: { type: ['string', 'null'] },
          merchant_id: { type: ['string', 'null'], description: 'The merchant a dashboard session acted for; null for operators.' },
          mode: {
            type: ['string', 'null'],
            enum: ['test', 'live', null],
            description: "The mode a merchant's dashboard session acted in; null for operators.",
          },
          via: {
            type: 'string',
            enum: ['admin_key', 'dashboard_session', 'api_key'],
            description: "How the request was signed: X-Admin-Key, a dashboard session's cookie, or a merchant's secret key (the changes of its own API keys).",
          },
          session_id_prefix: {
            type: ['string', 'null'],
            description: "The first 12 hex characters of the dashboard session's stored hash (its entries share it); null for an admin key.",
          },
          key_id: { type: ['string', 'null'], description: "The API key a merchant's dashboard session acts with." },
          role: {
            type: ['string', 'null'],
            enum: ['merchant', 'dashboard', 'operator', null],
            description: "The dashboard session's role: the kind of key that opened it.",
          },
          method: { type: 'string' },
          path: { type: 'string', description: 'Without the query string, cut to its first 300 characters (then …).' },
          target_ids: { type: 'array', items: { type: 'string' }, description: 'Ids named in the path, then the id of what the request created.' },
          status: { type: 'integer', description: 'The HTTP status answered; 499 when the client went away first.' },
          request_id: { type: 'string', description: "The request's id; in a gathered entry, the first request's." },
          client_address: {
            type: ['string', 'null'],
            description:
              "The client's address as the edge worked it out (TRUST_PROXY); in a gathered entry an IPv6 address by its /64, `*` for the addresses beyond the 1,000th of a minute. Null in entries written before it was kept.",
          },
          count: {
            type: 'integer',
            minimum: 1,
            description:
              'How many requests the entry stands for: 1, or the refused requests of unknown callers (no key, a wrong key, answered 429) of one address in one minute with one status, gathered into one entry written once the minute ended (method, path and request_id of the first).',
          },
        },
      },
      ServiceHealth: {
        type: 'object',
        required: ['object', 'status', 'checked_at', 'components'],
        additionalProperties: false,
        properties: {
          object: { type: 'string', const: 'service_health' },
          status: { type: 'string', enum: ['ok', 'degraded'] },
          checked_at: schemaRef('Timestamp'),
          components: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'status', 'latency_ms'],
              additionalProperties: false,
              properties: { name: { type: 'string' }, status: { type: 'string', enum: ['ok', 'unavailable'] }, latency_ms: { type: 'integer', minimum: 0 } },
            },
          },
        },
      },
      KeyStatus: {
        type: 'object',
        required: ['object', 'active_version', 'versions'],
        additionalProperties: false,
        properties: {
          object: { type: 'string', const: 'key_status' },
          active_version: { type: 'integer', minimum: 1, description: 'The KEK version new data keys are wrapped with.' },
          versions: {
            type: 'array',
            items: { type: 'integer', minimum: 1 },
            description: 'Every version the key ring holds (old ones stay until no data key needs them).',
          },
        },
      },
      KeyRotation: {
        type: 'object',
        required: ['id', 'to_version', 'state', 'total', 'rewrapped', 'remaining', 'started_at', 'completed_at'],
        additionalProperties: false,
        properties: {
          id: schemaRef('ObjectId'),
          to_version: { type: 'integer', minimum: 1 },
          state: { type: 'string', enum: ['running', 'completed'] },
          total: { type: 'integer', minimum: 0, description: 'Data keys not wrapped by to_version when the rotation started.' },
          rewrapped: { type: 'integer', minimum: 0 },
          remaining: { type: 'integer', minimum: 0, description: 'Data keys still to re-wrap now (0 once completed).' },
          started_at: schemaRef('Timestamp'),
          completed_at: { type: ['string', 'null'], format: 'date-time' },
        },
      },
      CreateMerchantRequest: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200 },
          card_data_access: { type: 'boolean', default: false, description: 'Whether the merchant may send raw card data to the API (card_data scope).' },
        },
      },
      RateLimit: {
        type: 'object',
        required: ['per_second', 'burst'],
        additionalProperties: false,
        description: 'A token bucket per API key: burst requests at once, refilled at per_second.',
        properties: { per_second: { type: 'number', exclusiveMinimum: 0, maximum: 1000000 }, burst: { type: 'integer', minimum: 1, maximum: 1000000 } },
      },
      UpdateMerchantRequest: {
        type: 'object',
        additionalProperties: false,
        properties: { rate_limit: { oneOf: [schemaRef('RateLimit'), { type: 'null' }] } },
      },
      Merchant: {
        type: 'object',
        required: ['id', 'name', 'card_data_access', 'created_at'],
        additionalProperties: false,
        properties: {
          id: schemaRef('ObjectId'),
          name: { type: 'string' },
          card_data_access: { type: 'boolean' },
          created_at: schemaRef('Timestamp'),
          rate_limit: { oneOf: [schemaRef('RateLimit'), { type: 'null' }], description: 'Null: the defaults (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST).' },
        },
      },
      MerchantWithApiKey: {
        type: 'object',
        required: ['id', 'name', 'card_data_access', 'created_at', 'api_key'],
        additionalProperties: false,
        properties: {
          id: schemaRef('ObjectId'),
          name: { type: 'string' },
          card_data_access: { type: 'boolean' },
          created_at: schemaRef('Timestamp'),
          rate_limit: { oneOf: [schemaRef('RateLimit'), { type: 'null' }] },
          api_key: { type: 'string', pattern: '^sk_(test|live)_[0-9A-Za-z]{32}$' },
        },
      },
      CreateApiKeyRequest: {
        type: 'object',
        additionalProperties: false,
        properties: {
          mode: { type: 'string', enum: ['test', 'live'], default: 'test' },
          label: { type: 'string', maxLength: 200 },
          scope: {
            type: 'string',
            enum: ['merchant', 'dashboard'],
            default: 'merchant',
            description:
              "`merchant`: a secret key (the whole merchant API). `dashboard`: a read-mostly key for the dashboard and support staff — every GET, and of the changes only capture, cancel, refund, a webhook delivery's replay and the flow matrix's explain.",
          },
        },
      },
      ApiKey: { type: 'object', required: apiKeyRequired, additionalProperties: false, properties: apiKeyProperties },
      ApiKeyWithSecret: {
        type: 'object',
        required: [...apiKeyRequired, 'api_key'],
        additionalProperties: false,
        properties: { ...apiKeyProperties, api_key: { type: 'string', pattern: '^sk_(test|live)_[0-9A-Za-z]{32}$' } },
      },
      RolledApiKey: {
        type: 'object',
        description: 'The key a roll made (in clear this one time) and, in previous, the rolled key with its new expiry.',
        required: [...apiKeyRequired, 'api_key', 'previous'],
        additionalProperties: false,
        properties: { ...apiKeyProperties, api_key: { type: 'string', pattern: '^sk_(test|live)_[0-9A-Za-z]{32}$' }, previous: schemaRef('ApiKey') },
      },
    },
  },
};
