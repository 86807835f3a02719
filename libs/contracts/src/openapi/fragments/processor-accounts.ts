import { PROCESSOR_MANIFESTS } from '../../processors/processor-destinations';
import type { ProcessorManifest } from '../../processors/processor-manifest';
import { prose } from '../../prose';
import { commonErrorResponses, livemodeProperty, problemResponse, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

/** Everything about the processors below comes from their manifests (each processor folder's manifest.json). */
const ids = PROCESSOR_MANIFESTS.map((manifest) => manifest.id);
const names = (manifests: readonly ProcessorManifest[]) => manifests.map((manifest) => manifest.display_name).join(', ');
/** The example account: at the first processor that takes credentials. */
const EXAMPLE = PROCESSOR_MANIFESTS.find((manifest) => manifest.credentials.fields.length > 0) ?? PROCESSOR_MANIFESTS[0]!;
const exampleCredentials = Object.fromEntries(EXAMPLE.credentials.fields.filter((field) => field.required).map((field) => [field.name, field.example]));
const exampleHint = (() => {
  const secret = EXAMPLE.credentials.secret_field ? exampleCredentials[EXAMPLE.credentials.secret_field] : undefined;
  return secret && secret.length >= 12 ? `…${secret.slice(-4)}` : null;
})();

const security = [{ ApiKey: [] }];
const accountIdParameter: JsonObject = { name: 'processor_account_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
/** A registered processor plugin's id: the installation decides which exist (an unknown one is 422, field processor). */
const processorId: JsonObject = {
  type: 'string',
  pattern: '^[a-z][a-z0-9_]{0,31}$',
  examples: ids,
  description: `The processor's id: one of the processors the installation registers (GET /processors lists them; ${ids.map((id) => `\`${id}\``).join(', ')} as built).`,
};
const processorParameter: JsonObject = {
  name: 'processor',
  in: 'path',
  required: true,
  schema: processorId,
  description: 'The processor the account is at: the same path serves every notifying processor.',
};

const ACCOUNT = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6c01',
  livemode: false,
  processor: EXAMPLE.id,
  name: `${EXAMPLE.display_name} EU`,
  settings: { base_url: null, ...Object.fromEntries(EXAMPLE.settings.map((setting) => [setting.name, setting.default])) },
  credentials: { hint: exampleHint, updated_at: '2026-11-23T10:15:00.000Z' },
  created_at: '2026-11-23T10:15:00.000Z',
  updated_at: '2026-11-23T10:15:00.000Z',
};

const json = (schema: JsonObject | string, example: unknown): JsonObject => ({
  'application/json': { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example },
});

/** Each setting a processor takes, described by its manifest; a setting of another processor is refused (422). */
const settingProperties = Object.fromEntries(
  [...new Set(PROCESSOR_MANIFESTS.flatMap((manifest) => manifest.settings.map((setting) => setting.name)))].map((name) => {
    const takers = PROCESSOR_MANIFESTS.filter((manifest) => manifest.settings.some((setting) => setting.name === name));
    const setting = takers[0]!.settings.find((candidate) => candidate.name === name)!;
    return [name, { type: setting.type, default: setting.default, description: `${names(takers)} accounts only (422 on others): ${setting.description}` }];
  }),
);

const settings: JsonObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    base_url: {
      type: ['string', 'null'],
      description:
        "Overrides the processor's host; accepted only when its payments URL is an allowed forward destination (built in, or FORWARD_EXTRA_DESTINATIONS).",
    },
    ...settingProperties,
    approval_rate: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 1,
      description:
        'Simulator accounts only (422 on others): the share of ordinary cards the account approves; the rest are declined card_declined (do_not_honor), the same payments ' +
        'every time, and two accounts decline independently. Test cards keep their own behaviour. Two simulator accounts with different rates show routing in test mode.',
    },
    seed: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 100,
      default: null,
      description:
        "Simulator accounts only (422 on others): when set, approval_rate's draw is made from this seed and the payment's reference (its id when it has none) " +
        'instead of the account id and the payment id, so the same references get the same approvals and declines in every run: a reproducible test suite, ' +
        'or routing strategies compared on the same luck. Two accounts with different seeds decline independently.',
    },
    outage: {
      type: 'array',
      maxItems: 20,
      default: [],
      description:
        "Simulator accounts only (422 on others): windows in which the account answers nothing (processor_unavailable, a technical error: the step's next processor is " +
        "asked), read on the payment's effective time (the test clock's for an X-Test-Now payment).",
      items: {
        type: 'object',
        required: ['from', 'to'],
        additionalProperties: false,
        properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time', description: 'After from.' } },
      },
    },
  },
};

const credentialList = (manifest: ProcessorManifest) =>
  manifest.credentials.fields.length === 0
    ? 'none'
    : manifest.credentials.fields.map((field) => (field.required ? field.name : `${field.name} (optional)`)).join(', ');
const credentials: JsonObject = {
  type: 'object',
  description: `Validated by the processor's plugin; the fields are those GET /processors lists. ${PROCESSOR_MANIFESTS.map((manifest) => `${manifest.display_name}: ${credentialList(manifest)}.`).join(' ')} A notification secret shorter than its processor's minimum (the field's description names it): 422 webhook_secret_too_short. Sealed at rest, never returned.`,
  additionalProperties: { type: 'string' },
};

const notifying = PROCESSOR_MANIFESTS.filter((manifest) => manifest.notifications !== null);

const PROCESSOR_EXAMPLE = {
  id: EXAMPLE.id,
  object: 'processor',
  display_name: EXAMPLE.display_name,
  credentials: {
    secret_field: EXAMPLE.credentials.secret_field,
    fields: EXAMPLE.credentials.fields.map(({ name, label, secret, required, description }) => ({ name, label, secret, required, description })),
  },
  settings: EXAMPLE.settings,
  notifies: EXAMPLE.notifications !== null,
  capabilities: {
    modes: ['test', 'live'],
    authorize: true,
    capture: true,
    partial_capture: true,
    multiple_captures: false,
    authentication_3ds: true,
    authentication_3ri: false,
    risk: false,
    explicit_unscheduled: true,
  },
};

const capability = (description: string): JsonObject => ({ type: 'boolean', description });

/** Processor accounts (merchant API key) and the processors' notifications (public: signed by the processor). */
export const processorAccountsFragment: OpenApiFragment = {
  tags: [
    {
      name: 'Processor accounts',
      description: `A merchant's accounts at the processors (${names(PROCESSOR_MANIFESTS)}); flows name them in their steps. GET /processors says what each takes.`,
    },
    { name: 'Processor notifications', description: "What the processors send back, authenticated by their signature with the account's key." },
  ],
  paths: {
    '/processors': {
      get: {
        tags: ['Processor accounts'],
        operationId: 'listProcessors',
        summary: 'The processors an account can be added at',
        description:
          "Every processor the installation registers, as its manifest describes it: the credential fields an account takes (which are secret, which one the account's " +
          'hint shows), the settings it takes beyond base_url, whether it notifies, and what it can do. The same for every merchant and mode; a form that adds ' +
          'a processor account is built from it.',
        security,
        responses: {
          '200': {
            description: 'Every registered processor, in registry order.',
            content: json(
              {
                type: 'object',
                required: ['object', 'data'],
                additionalProperties: false,
                properties: { object: { type: 'string', const: 'list' }, data: { type: 'array', items: schemaRef('Processor') } },
              },
              { object: 'list', data: [PROCESSOR_EXAMPLE] },
            ),
          },
          ...commonErrorResponses,
        },
      },
    },
    '/processor-accounts': {
      post: {
        tags: ['Processor accounts'],
        operationId: 'createProcessorAccount',
        summary: 'Add an account at a processor',
        security,
        requestBody: {
          required: true,
          content: json('ProcessorAccountInput', { processor: EXAMPLE.id, name: `${EXAMPLE.display_name} EU`, credentials: exampleCredentials }),
        },
        responses: {
          '201': { description: 'The account (credentials only as a hint).', content: json('ProcessorAccount', ACCOUNT) },
          ...commonErrorResponses,
          '409': problemResponse('processor_account_limit_reached.'),
          '422': problemResponse('invalid_credentials (field credentials.<name>), destination_not_allowed (settings.base_url), validation_failed.'),
        },
      },
      get: {
        tags: ['Processor accounts'],
        operationId: 'listProcessorAccounts',
        summary: "The merchant's processor accounts",
        security,
        responses: {
          '200': {
            description: 'Every account, oldest first.',
            content: json(
              {
                type: 'object',
                required: ['object', 'data'],
                additionalProperties: false,
                properties: { object: { type: 'string', const: 'list' }, data: { type: 'array', items: schemaRef('ProcessorAccount') } },
              },
              { object: 'list', data: [ACCOUNT] },
            ),
          },
          ...commonErrorResponses,
        },
      },
    },
    '/processor-accounts/{processor_account_id}': {
      get: {
        tags: ['Processor accounts'],
        operationId: 'getProcessorAccount',
        summary: 'Retrieve a processor account',
        security,
        parameters: [accountIdParameter],
        responses: {
          '200': { description: 'The account.', content: json('ProcessorAccount', ACCOUNT) },
          ...commonErrorResponses,
          '404': problemResponse("processor_account_not_found (also another merchant's)."),
        },
      },
      patch: {
        tags: ['Processor accounts'],
        operationId: 'updateProcessorAccount',
        summary: 'Rename, rotate the credentials (replaced whole) or replace the settings',
        security,
        parameters: [accountIdParameter],
        requestBody: { required: true, content: json('ProcessorAccountChange', { credentials: exampleCredentials }) },
        responses: {
          '200': { description: 'The account.', content: json('ProcessorAccount', ACCOUNT) },
          ...commonErrorResponses,
          '404': problemResponse('processor_account_not_found.'),
          '409': problemResponse('concurrent_modification: another change committed first.'),
          '422': problemResponse('invalid_credentials, destination_not_allowed, validation_failed.'),
        },
      },
      delete: {
        tags: ['Processor accounts'],
        operationId: 'deleteProcessorAccount',
        summary: 'Delete a processor account',
        security,
        parameters: [accountIdParameter],
        responses: {
          '204': { description: 'Deleted.' },
          ...commonErrorResponses,
          '404': problemResponse('processor_account_not_found.'),
          '409': problemResponse('processor_account_in_use: a flow names the account in its steps; `flows` lists them.'),
        },
      },
    },
    '/processor-notifications/{processor}/{processor_account_id}': {
      post: {
        tags: ['Processor notifications'],
        operationId: 'receiveProcessorNotification',
        summary: "A processor's notification (its own body and signature), verified by the processor's plugin with the account's own secret",
        description:
          `One route for every processor that notifies; the body and signature are the processor's own. ${notifying.map((manifest) => `${manifest.display_name}: ${manifest.notifications}`).join(' ')} ` +
          `Other processors: their README. ${notifying.map((manifest) => `\`/processor-notifications/${manifest.id}/{id}\``).join(', ')} are this route.`,
        security: [],
        parameters: [processorParameter, accountIdParameter],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', description: 'The notification as the processor sends it (only what is read is described in its README).' },
              examples: Object.fromEntries(
                notifying
                  .filter((manifest) => manifest.notification_example)
                  .map((manifest) => [manifest.id, { summary: `${manifest.display_name} (processor ${manifest.id})`, value: manifest.notification_example }]),
              ),
            },
          },
        },
        responses: {
          '200': {
            description: 'Read (each event recorded once): the answer the processor expects.',
            content: {
              'text/plain': { schema: { type: 'string' }, example: '[accepted]' },
              'application/json': { schema: { type: 'object' }, example: { received: true } },
            },
          },
          '400': problemResponse('invalid_notification: the body is not a notification of this processor.'),
          '401': problemResponse(
            prose(
              "invalid_signature: the signature does not verify with the account's secret (processors that refuse a forged body; Adyen answers 200 and stores nothing). Not stored (counted and logged), nothing moves.",
            ),
          ),
          '404': problemResponse('processor_account_not_found: unknown account, an account of another processor, or a processor that does not notify.'),
          '413': problemResponse('too_many_notification_items: more than 100 items in one body; nothing of it is recorded.'),
          '429': problemResponse("rate_limited: the sender's address or the account went over its rate limit; Retry-After says when to deliver again."),
          '503': problemResponse(
            'stray_authorization_pending: an authorization the payment does not use cannot be voided yet; the processor delivers it again.',
          ),
        },
      },
    },
  },
  components: {
    schemas: {
      Processor: {
        type: 'object',
        required: ['id', 'object', 'display_name', 'credentials', 'settings', 'notifies', 'capabilities'],
        additionalProperties: false,
        properties: {
          id: processorId,
          object: { type: 'string', const: 'processor' },
          display_name: { type: 'string', description: "How the processor's name is written." },
          credentials: {
            type: 'object',
            required: ['secret_field', 'fields'],
            additionalProperties: false,
            properties: {
              secret_field: {
                type: ['string', 'null'],
                description: "The credential whose last four characters an account's credentials.hint shows; null when it takes none.",
              },
              fields: {
                type: 'array',
                description: 'The credentials an account at it takes (POST /processor-accounts `credentials`), in the order to ask for them.',
                items: {
                  type: 'object',
                  required: ['name', 'label', 'secret', 'required', 'description'],
                  additionalProperties: false,
                  properties: {
                    name: { type: 'string', description: 'Its key in `credentials`.' },
                    label: { type: 'string', description: 'How a person reads it.' },
                    secret: {
                      type: 'boolean',
                      description: 'A secret, typed into a masked field. Every credential is sealed at rest and never returned, secret or not.',
                    },
                    required: { type: 'boolean', description: 'false: only some accounts need it (its description says which).' },
                    description: { type: 'string' },
                  },
                },
              },
            },
          },
          settings: {
            type: 'array',
            description: "The settings an account at it takes beyond base_url (another processor's setting is refused, 422).",
            items: {
              type: 'object',
              required: ['name', 'label', 'type', 'default', 'description'],
              additionalProperties: false,
              properties: {
                name: { type: 'string', description: 'Its key in `settings`.' },
                label: { type: 'string', description: 'How a person reads it.' },
                type: { type: 'string', const: 'boolean' },
                default: { type: 'boolean' },
                description: { type: 'string' },
              },
            },
          },
          notifies: {
            type: 'boolean',
            description: 'It sends notifications to /processor-notifications/{processor}/{processor_account_id}, which its accounts must be set up to deliver.',
          },
          capabilities: {
            type: 'object',
            required: [
              'modes',
              'authorize',
              'capture',
              'partial_capture',
              'multiple_captures',
              'authentication_3ds',
              'authentication_3ri',
              'risk',
              'explicit_unscheduled',
            ],
            additionalProperties: false,
            properties: {
              modes: { type: 'array', items: { type: 'string', enum: ['test', 'live'] }, description: 'The key modes it serves.' },
              authorize: capability("Authorizes payments (a flow's authorization step)."),
              capture: capability('Captures them (a capture step).'),
              partial_capture: capability('Captures less than the authorized amount.'),
              multiple_captures: capability('Several captures of one authorization (final_capture false); for some processors only with an account setting.'),
              authentication_3ds: capability('3-D Secure on the hosted page.'),
              authentication_3ri: capability('3-D Secure Requestor Initiated authentication of merchant-initiated payments (a 3RI step).'),
              risk: capability('A risk assessment step.'),
              explicit_unscheduled: capability('Tells unscheduled merchant-initiated payments from recurring ones.'),
            },
          },
        },
      },
      ProcessorAccountInput: {
        type: 'object',
        required: ['processor', 'name'],
        additionalProperties: false,
        properties: { processor: processorId, name: { type: 'string', minLength: 1, maxLength: 64 }, credentials, settings },
      },
      ProcessorAccountChange: {
        type: 'object',
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 64 }, credentials, settings },
      },
      ProcessorAccount: {
        type: 'object',
        required: ['id', 'livemode', 'processor', 'name', 'settings', 'credentials', 'created_at', 'updated_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid' },
          livemode: livemodeProperty(
            "the account was created with a live key: it serves only live payments and talks only to the processor's live host (or an allowed base_url); it belongs to",
          ),
          processor: processorId,
          name: { type: 'string' },
          settings: { ...settings, required: ['base_url'] },
          credentials: {
            type: 'object',
            required: ['hint', 'updated_at'],
            additionalProperties: false,
            properties: {
              hint: { type: ['string', 'null'], description: '… and the last four characters of the API or secret key.' },
              updated_at: { type: 'string', format: 'date-time' },
            },
          },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};
