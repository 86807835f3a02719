import { isHttpsAddress } from '@vaultline/contracts';
import { ValidationError } from '@vaultline/core';
import type { StoredDocument } from '@vaultline/store';

/** The image types a logo may be: raster only (an SVG is a document that can carry script and links). */
export type LogoImageType = 'image/png' | 'image/jpeg' | 'image/webp';

/** An uploaded logo is served from the vault's own origin, so it is kept small. */
export const MAX_LOGO_BYTES = 64 * 1024;
export const MAX_DISPLAY_NAME_LENGTH = 60;

export type CheckoutLogo = { type: 'url'; url: string } | { type: 'image'; content_type: LogoImageType; data_base64: string; size_bytes: number };

/**
 * How the merchant's hosted page looks to the consumer: the name, colour and logo shown on it. One
 * record per merchant (id = merchant id), the same in test and live: the consumer sees one shop.
 */
export interface CheckoutBrandingRecord extends StoredDocument {
  display_name: string | null;
  /** #rrggbb, lower case: the pay button's background. */
  brand_color: string | null;
  logo: CheckoutLogo | null;
  updated_at: string;
}

/** What the merchant may change; null clears a setting, undefined leaves it. logo_url and logo_image replace each other. */
export interface CheckoutBrandingChanges {
  display_name?: string | null;
  brand_color?: string | null;
  logo_url?: string | null;
  /** Base64 of a PNG, JPEG or WebP file of at most MAX_LOGO_BYTES. */
  logo_image?: string | null;
}

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** WCAG 2.x relative luminance of an #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.x contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour for a button of `background`: black or white, whichever contrasts more. The better of
 * the two always reaches at least 4.58:1 (WCAG AA for normal text), whatever the background.
 */
export function buttonTextColorFor(background: string): '#000000' | '#ffffff' {
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
}

export function parseBrandColor(value: string): string {
  if (!HEX_COLOR.test(value)) throw new ValidationError('brand_color', 'brand_color must be a colour written #rrggbb, such as #0b5fff.');
  return value.toLowerCase();
}

/** Letters, digits, spaces and punctuation the consumer can read; no control or invisible formatting characters. */
export function parseDisplayName(value: string): string {
  const name = value.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (name.length === 0) throw new ValidationError('display_name', 'display_name must not be empty; send null to show no name.');
  if ([...name].length > MAX_DISPLAY_NAME_LENGTH)
    throw new ValidationError('display_name', `display_name holds at most ${MAX_DISPLAY_NAME_LENGTH} characters.`);
  if (/[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/u.test(name))
    throw new ValidationError('display_name', 'display_name must not contain control or invisible formatting characters.');
  return name;
}

export function parseLogoUrl(value: string): CheckoutLogo {
  if (value.length > 2048 || !isHttpsAddress(value)) {
    throw new ValidationError('logo_url', 'logo_url must be an https URL on a plain host name (no credentials), at most 2048 characters.');
  }
  return { type: 'url', url: new URL(value).toString() };
}

/** The image type its first bytes say, whatever the uploader claims. */
export function sniffLogoType(bytes: Buffer): LogoImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export function parseLogoImage(base64: string): CheckoutLogo {
  const compact = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw new ValidationError('logo_image', 'logo_image must be the image file in base64.');
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw new ValidationError('logo_image', 'logo_image is empty; send null to remove the logo.');
  if (bytes.length > MAX_LOGO_BYTES)
    throw new ValidationError('logo_image', `logo_image is ${bytes.length} bytes; at most ${MAX_LOGO_BYTES} (64 KB) are accepted.`);
  const type = sniffLogoType(bytes);
  if (!type) throw new ValidationError('logo_image', 'logo_image must be a PNG, JPEG or WebP file (SVG is not accepted).');
  return { type: 'image', content_type: type, data_base64: bytes.toString('base64'), size_bytes: bytes.length };
}

/** The settings after `changes`, each validated; a field not named keeps its value. */
export function applyBrandingChanges(
  current: Pick<CheckoutBrandingRecord, 'display_name' | 'brand_color' | 'logo'>,
  changes: CheckoutBrandingChanges,
): Pick<CheckoutBrandingRecord, 'display_name' | 'brand_color' | 'logo'> {
  if (typeof changes.logo_url === 'string' && typeof changes.logo_image === 'string') {
    throw new ValidationError('logo_image', 'Send either logo_url or logo_image, not both.');
  }
  const next = { ...current };
  if (changes.display_name !== undefined) next.display_name = changes.display_name === null ? null : parseDisplayName(changes.display_name);
  if (changes.brand_color !== undefined) next.brand_color = changes.brand_color === null ? null : parseBrandColor(changes.brand_color);
  // One logo at a time: a new one of either kind replaces the other; null (in either field) removes it.
  if (typeof changes.logo_image === 'string') next.logo = parseLogoImage(changes.logo_image);
  else if (typeof changes.logo_url === 'string') next.logo = parseLogoUrl(changes.logo_url);
  else if (changes.logo_url === null || changes.logo_image === null) next.logo = null;
  return next;
}

/** Where the page's <img> finds the logo: the merchant's https URL, or the vault's route for an uploaded image. */
export function logoAddressFor(logo: CheckoutLogo | null, sessionId: string): string | null {
  if (!logo) return null;
  return logo.type === 'url' ? logo.url : `/sessions/${encodeURIComponent(sessionId)}/logo`;
}

/** The origin the page must allow images from, beyond its own: only for a logo the merchant hosts. */
export function logoOriginOf(logo: CheckoutLogo | null): string | null {
  return logo?.type === 'url' ? new URL(logo.url).origin : null;
}
