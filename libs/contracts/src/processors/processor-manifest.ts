import { z } from 'zod';

/**
 * A processor's manifest: the data every part of the system needs about one processor, kept as
 * `manifest.json` in the processor's own folder (services/payment-orchestrator/src/processors/<id>/) and
 * nowhere else. Data only, no code: its hosts and the paths each serves per purpose, the card fields of
 * the card-data ones, the headers its requests carry through the forwarder, its credentials (which one
 * the account's hint shows, which are secret, how each is checked), its account settings, how it
 * notifies, and its test cards. The forwarder (allowlist, card fields, headers), the contracts
 * (destination catalog, OpenAPI document), GET /processors (the dashboard's account form), the guides
 * page and the bench read it; the processor's plugin reads its own.
 *
 * The folders are not importable from libs/ or another service, so `scripts/processor-manifests.mjs`
 * copies them into `processor-manifests.generated.json` beside this file (`pnpm lint` fails when the copy
 * drifts): the one place libs/contracts and the forwarder read them from.
 */

/** The forwarder's placeholders a card field may hold (`{{ account_number }}` …). */
const CARD_PLACEHOLDER_NAMES = ['account_number', 'expiration_month', 'expiration_year', 'security_code'] as const;
export type CardPlaceholder = (typeof CARD_PLACEHOLDER_NAMES)[number];

/**
 * The card fields of a destination: each field that may hold card data and the one placeholder it takes.
 * A JSON field is a path of object keys joined by dots (`paymentMethod.number`); a form field is the field
 * name (`card[number]`).
 */
export type CardFields = Readonly<Record<string, CardPlaceholder>>;

/** How a quoted placeholder that is a whole JSON string value is typed: as text, or expiry fields as integers. */
export type WholeValueTyping = 'string' | 'integer-expiry';

export interface CardFieldProfile {
  fields: CardFields;
  typing: WholeValueTyping;
}

/** Which API keys a destination serves: a processor's test host, its live one, or both (one host, the key decides). */
export type DestinationMode = 'test' | 'live' | 'any';

const DESTINATION_PURPOSES = ['payments', 'captures', 'refunds', 'voids', 'details', 'payment_methods', 'disputes', 'files'] as const;
/** What a destination is for: the authorization (card data), the after-sale calls, status reads, answering disputes and uploading their evidence files. */
export type DestinationPurpose = (typeof DESTINATION_PURPOSES)[number];

const lowerName = /^[a-z][a-z0-9_]*$/;

const cardFieldProfile = z
  .object({ fields: z.record(z.string().min(1), z.enum(CARD_PLACEHOLDER_NAMES)), typing: z.enum(['string', 'integer-expiry']) })
  .strict();

const credentialField = z
  .object({
    name: z.string().regex(lowerName),
    /** How a person reads it (the dashboard's label). */
    label: z.string().min(1),
    /** Typed into a masked field; every credential is sealed at rest and never returned, secret or not. */
    secret: z.boolean(),
    required: z.boolean(),
    /** What it is and where the merchant finds it (its rule is the plugin's credentials schema, which a contract test holds to this list). */
    description: z.string().min(1),
    /** An example value, for the API's documentation (never a real credential). */
    example: z.string().min(1),
  })
  .strict();

const setting = z
  .object({
    name: z.string().regex(lowerName),
    label: z.string().min(1),
    type: z.literal('boolean'),
    default: z.boolean(),
    description: z.string().min(1),
  })
  .strict();

const manifestSchema = z
  .object({
    /** Its key in the orchestrator's registry; accounts, flows and notification URLs name it. */
    id: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/),
    /** How people write its name (error details, docs, the dashboard). */
    display_name: z.string().min(1),
    /** Every host it is reached on: a name (the forwarder's rule name), the key mode it serves, its base URL (a pattern), the API it serves. */
    hosts: z.array(
      z
        .object({
          name: z.string().min(1),
          mode: z.enum(['test', 'live', 'any']),
          base_url: z.string().regex(/^https:\/\/[^/?#]+(\/[^?#]*[^/?#])?$/),
          api: z.string().min(1),
        })
        .strict(),
    ),
    /** Per API: the paths it serves, by purpose (`{name}` stands for one id segment). */
    apis: z.record(z.string().min(1), z.partialRecord(z.enum(DESTINATION_PURPOSES), z.array(z.string().regex(/^\/[^?#]*$/)).min(1))),
    /** The card fields of the purposes that take card data. */
    card_fields: z.partialRecord(z.enum(DESTINATION_PURPOSES), cardFieldProfile),
    /** The headers (lower case) its card-data requests carry through the forwarder: credential, idempotency key, API version. */
    forwarded_headers: z.array(z.string().regex(/^[a-z][a-z0-9-]*$/)),
    credentials: z.object({ secret_field: z.string().nullable(), fields: z.array(credentialField) }).strict(),
    /** Account settings it takes beyond base_url. */
    settings: z.array(setting),
    /** How it notifies and what it is answered (documentation), null when it does not notify. */
    notifications: z.string().min(1).nullable(),
    /** A notification body as it sends one (the API document's example of the notification route). */
    notification_example: z.record(z.string(), z.unknown()).optional(),
    /** The test cards of its test environment and what they do (the guides page). */
    test_cards: z.array(z.object({ number: z.string().regex(/^[0-9 ]{12,23}$/), outcome: z.string().min(1) }).strict()),
  })
  .strict()
  .superRefine((manifest, context) => {
    const names = manifest.credentials.fields.map((field) => field.name);
    if (manifest.credentials.secret_field !== null && !names.includes(manifest.credentials.secret_field)) {
      context.addIssue({
        code: 'custom',
        path: ['credentials', 'secret_field'],
        message: `${manifest.credentials.secret_field} is not one of its credentials`,
      });
    }
    for (const [i, host] of manifest.hosts.entries()) {
      if (!manifest.apis[host.api]) context.addIssue({ code: 'custom', path: ['hosts', i, 'api'], message: `no API ${host.api}` });
    }
  });

export type ProcessorManifest = z.infer<typeof manifestSchema>;

/** A manifest as read from its JSON, checked (a malformed one stops whatever loads it, naming the field). */
export function processorManifest(json: unknown): ProcessorManifest {
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const id = typeof json === 'object' && json !== null && 'id' in json ? String((json as { id: unknown }).id) : '?';
    throw new Error(`processor manifest ${id}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  return parsed.data;
}

/** The path its payments go to under an account's base URL (its first payments path); null for a processor without a network. */
export function paymentsPathOf(manifest: ProcessorManifest): string | null {
  for (const host of manifest.hosts) {
    const path = manifest.apis[host.api]?.payments?.[0];
    if (path) return path;
  }
  return null;
}
