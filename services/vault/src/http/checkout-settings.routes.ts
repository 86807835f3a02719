import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { authOf, parseInput, requireScope } from '@vaultline/http';
import type { GetCheckoutBranding, UpdateCheckoutBranding } from '../domain/branding/manage-branding';
import { toCheckoutSettingsView } from './checkout-settings.view';

/** Types are checked here; what a value may be (colour, length, image) is the domain's rule (checkout-branding.ts). */
const settingsChanges = z.strictObject({
  display_name: z.string().max(1_000).nullable().optional(),
  brand_color: z.string().max(100).nullable().optional(),
  logo_url: z.string().max(4_096).nullable().optional(),
  // 64 KB of image is about 87,400 characters of base64: the rest is refused by its decoded size.
  logo_image: z.string().max(100_000).nullable().optional(),
});

/** The merchant's hosted-page settings (reached through the gateway with the merchant's API key). */
export function checkoutSettingsRoutes(
  router: Router,
  useCases: { getCheckoutBranding: GetCheckoutBranding; updateCheckoutBranding: UpdateCheckoutBranding },
): void {
  router.get('/settings/checkout', requireScope(SCOPES.merchant), async (req, res) => {
    res.json(toCheckoutSettingsView(await useCases.getCheckoutBranding(authOf(req))));
  });

  router.patch('/settings/checkout', requireScope(SCOPES.merchant), async (req, res) => {
    const changes = parseInput(settingsChanges, req.body ?? {});
    res.json(toCheckoutSettingsView(await useCases.updateCheckoutBranding(authOf(req), changes)));
  });
}
