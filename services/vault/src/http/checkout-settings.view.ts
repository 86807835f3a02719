import { buttonTextColorFor } from '../domain/branding/checkout-branding';
import type { CheckoutBranding } from '../domain/branding/manage-branding';

/** The settings as the merchant reads them: an uploaded logo by its type and size, never its bytes back. */
export function toCheckoutSettingsView(branding: CheckoutBranding) {
  const { logo } = branding;
  return {
    object: 'checkout_settings',
    display_name: branding.display_name,
    brand_color: branding.brand_color,
    button_text_color: branding.brand_color ? buttonTextColorFor(branding.brand_color) : null,
    logo:
      logo === null
        ? null
        : logo.type === 'url'
          ? { type: 'url', url: logo.url }
          : { type: 'image', content_type: logo.content_type, size_bytes: logo.size_bytes },
    updated_at: branding.updated_at,
  };
}
