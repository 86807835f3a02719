import { commonErrorResponses, jsonResponse, problemResponse, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

const nullableString = (description: string, extra: JsonObject = {}): JsonObject => ({ type: ['string', 'null'], description, ...extra });

const SETTINGS_EXAMPLE = {
  object: 'checkout_settings',
  display_name: 'Acme Coffee Roasters',
  brand_color: '#1d4ed8',
  button_text_color: '#ffffff',
  logo: { type: 'url', url: 'https://cdn.acme.example/logo.png' },
  updated_at: '2026-11-26T08:00:00.000Z',
};

const logo: JsonObject = {
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['type', 'url'],
      additionalProperties: false,
      properties: { type: { const: 'url' }, url: { type: 'string', format: 'uri', description: 'The https address the page loads the logo from.' } },
    },
    {
      type: 'object',
      required: ['type', 'content_type', 'size_bytes'],
      additionalProperties: false,
      properties: {
        type: { const: 'image' },
        content_type: {
          type: 'string',
          enum: ['image/png', 'image/jpeg', 'image/webp'],
          description: "Read from the file's first bytes, not from what the upload claimed.",
        },
        size_bytes: { type: 'integer', minimum: 1, maximum: 65536 },
      },
    },
  ],
};

/** The hosted checkout page's look: merchant-facing settings kept by the vault, which serves the page. */
export const checkoutSettingsFragment: OpenApiFragment = {
  paths: {
    '/settings/checkout': {
      get: {
        tags: ['Checkout'],
        operationId: 'getCheckoutSettings',
        summary: "The hosted page's look: display name, brand colour and logo",
        description:
          "One set per merchant, the same for test and live keys. Nothing set: the page shows the merchant's name (as the operator named the merchant), the default colour and no logo.",
        security: [{ ApiKey: [] }],
        responses: { '200': jsonResponse('The settings.', 'CheckoutSettings', SETTINGS_EXAMPLE), ...commonErrorResponses },
      },
      patch: {
        tags: ['Checkout'],
        operationId: 'updateCheckoutSettings',
        summary: "Change the hosted page's look",
        description:
          'Only the fields sent change; null clears one. Every page opened afterwards shows the new look (an open page keeps what it loaded). ' +
          "The logo is an https URL (the page's Content-Security-Policy then allows images from that origin only) or an uploaded PNG, JPEG or " +
          "WebP file of at most 64 KB, served by the page's own origin; SVG is refused. A new logo of either kind replaces the other.",
        security: [{ ApiKey: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: schemaRef('CheckoutSettingsUpdate'),
              examples: {
                brand: {
                  summary: 'Name, colour and a hosted logo',
                  value: { display_name: 'Acme Coffee Roasters', brand_color: '#1d4ed8', logo_url: 'https://cdn.acme.example/logo.png' },
                },
                clear: { summary: 'Back to the default look', value: { display_name: null, brand_color: null, logo_url: null } },
              },
            },
          },
        },
        responses: {
          '200': jsonResponse('The settings as saved.', 'CheckoutSettings', SETTINGS_EXAMPLE),
          ...commonErrorResponses,
          '409': problemResponse('concurrent_modification: another change was saved at the same moment; read and try again.'),
          '422': problemResponse(
            'validation_failed naming the field: display_name (1–60 characters, no control characters), brand_color (#rrggbb), logo_url (https), logo_image (PNG, JPEG or WebP in base64, at most 64 KB).',
          ),
        },
      },
    },
  },
  components: {
    schemas: {
      CheckoutSettings: {
        type: 'object',
        required: ['object', 'display_name', 'brand_color', 'button_text_color', 'logo', 'updated_at'],
        additionalProperties: false,
        properties: {
          object: { const: 'checkout_settings' },
          display_name: nullableString("The shop's name, shown at the top of the page.", { maxLength: 60 }),
          brand_color: nullableString("The pay button's colour, #rrggbb in lower case.", { pattern: '^#[0-9a-f]{6}$' }),
          button_text_color: {
            type: ['string', 'null'],
            enum: ['#000000', '#ffffff', null],
            description: 'Black or white, whichever contrasts more with brand_color (WCAG contrast ratio; at least 4.58:1 whatever the colour).',
          },
          logo,
          updated_at: { type: ['string', 'null'], format: 'date-time', description: 'null until the settings are first changed.' },
        },
        examples: [
          {
            object: 'checkout_settings',
            display_name: 'Acme Coffee Roasters',
            brand_color: '#1d4ed8',
            button_text_color: '#ffffff',
            logo: { type: 'image', content_type: 'image/png', size_bytes: 4210 },
            updated_at: '2026-11-26T08:00:00.000Z',
          },
        ],
      },
      CheckoutSettingsUpdate: {
        type: 'object',
        additionalProperties: false,
        properties: {
          display_name: nullableString('1–60 characters after trimming; no control or invisible formatting characters.'),
          brand_color: nullableString('#rrggbb, such as #1d4ed8; the button text is black or white, whichever contrasts more.'),
          logo_url: nullableString('An https URL of the logo image (no credentials); replaces an uploaded logo.', { format: 'uri' }),
          logo_image: nullableString('A PNG, JPEG or WebP file in base64, at most 64 KB decoded; the type is read from its bytes. Replaces a logo_url.', {
            contentEncoding: 'base64',
          }),
        },
      },
    },
  },
};
