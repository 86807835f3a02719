// The hosted checkout page's look (GET/PATCH /settings/checkout): the name at its top (the merchant's name
// when none is set), the pay button's colour and a logo (an https address or an uploaded PNG, JPEG or WebP
// of at most 64 KB), with a preview of the page as a consumer sees it.
import { useState } from 'preact/hooks';
import { useApp, useMayConfigure } from '../../app-context';
import type { CheckoutSettings } from '../../api/types';
import { PageHeader } from '../../components/page';
import { PageNotReady, describeError } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime } from '../../format';

const MAX_LOGO_BYTES = 64 * 1024;

/** black or white, whichever contrasts more with the colour (as the vault chooses for the real page). */
function textColorOn(hex: string): '#000000' | '#ffffff' {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#000000';
}

export function CheckoutPage() {
  const { clients, session } = useApp();
  const mayConfigure = useMayConfigure();
  const [state, reload, refresh] = useAsync(() => clients.merchant.get('/settings/checkout', {}) as Promise<CheckoutSettings>, []);
  if (state.status !== 'ready') return <PageNotReady title="Checkout" what="the checkout settings" state={state} retry={reload} />;
  // Saved: the settings are read again quietly; the form keeps what was typed and says it was saved.
  return <CheckoutForm settings={state.value} merchantName={session.name} mayConfigure={mayConfigure} saved={refresh} />;
}

function CheckoutForm({
  settings,
  merchantName,
  mayConfigure,
  saved,
}: {
  settings: CheckoutSettings;
  merchantName: string | null;
  mayConfigure: boolean;
  saved: () => void;
}) {
  const { clients, session } = useApp();
  const [name, setName] = useState(settings.display_name ?? '');
  const [color, setColor] = useState(settings.brand_color ?? '#1f4fd1');
  const [logoUrl, setLogoUrl] = useState(settings.logo?.type === 'url' ? settings.logo.url : '');
  const [upload, setUpload] = useState<{ base64: string; preview: string; size: number } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = (file: File | undefined) => {
    setMessage(null);
    if (!file) return setUpload(null);
    if (file.size > MAX_LOGO_BYTES) return setMessage({ ok: false, text: `The logo is ${Math.ceil(file.size / 1024)} KB: at most 64 KB.` });
    const reader = new FileReader();
    reader.onload = () => {
      const preview = String(reader.result);
      setUpload({ base64: preview.slice(preview.indexOf(',') + 1), preview, size: file.size });
      setLogoUrl('');
    };
    reader.readAsDataURL(file);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const body: Record<string, unknown> = { display_name: name.trim() || null, brand_color: color.toLowerCase() };
      if (upload) body.logo_image = upload.base64;
      else if (logoUrl.trim()) body.logo_url = logoUrl.trim();
      else if (settings.logo?.type === 'url') body.logo_url = null;
      await clients.merchant.patch('/settings/checkout', { body: body });
      setMessage({ ok: true, text: 'Saved: every checkout page opened from now on looks like the preview.' });
      saved();
    } catch (failure) {
      setMessage({ ok: false, text: describeError(failure) });
    } finally {
      setBusy(false);
    }
  };

  const shownName = name.trim() || merchantName || '';
  // The preview draws an uploaded file (a data: address the dashboard's policy allows); an https logo only the real page loads.
  const previewLogo = upload?.preview ?? null;
  return (
    <>
      <PageHeader title="Checkout" />
      <p class="hint">How the hosted payment page and the checkout.js form look to your customers. One look for test and live.</p>
      <div class="split">
        <form class="card" onSubmit={save} aria-label="The checkout page's look">
          <div class="field">
            <label for="checkout-name">Shop name</label>
            <input
              id="checkout-name"
              maxLength={60}
              value={name}
              placeholder={merchantName ?? ''}
              disabled={!mayConfigure}
              onInput={(event) => setName((event.target as HTMLInputElement).value)}
            />
            <span class="hint">Empty: your merchant name{merchantName ? ` (${merchantName})` : ''}.</span>
          </div>
          <div class="field">
            <label for="checkout-color">Button colour</label>
            <span class="color-field">
              <input
                id="checkout-color"
                type="color"
                value={color}
                disabled={!mayConfigure}
                onInput={(event) => setColor((event.target as HTMLInputElement).value)}
              />
              <code>{color}</code>
            </span>
          </div>
          <div class="field">
            <label for="checkout-logo-url">Logo address (https)</label>
            <input
              id="checkout-logo-url"
              type="url"
              value={logoUrl}
              disabled={!mayConfigure || upload !== null}
              placeholder="https://cdn.example/logo.png"
              onInput={(event) => setLogoUrl((event.target as HTMLInputElement).value)}
            />
          </div>
          <div class="field">
            <label for="checkout-logo-file">Or upload a logo (PNG, JPEG or WebP, at most 64 KB)</label>
            <input
              id="checkout-logo-file"
              type="file"
              accept="image/png,image/jpeg,image/webp"
              disabled={!mayConfigure}
              onChange={(event) => pick((event.target as HTMLInputElement).files?.[0])}
            />
          </div>
          {message && (
            <p class={message.ok ? 'notice' : 'form-error'} role={message.ok ? 'status' : 'alert'}>
              {message.text}
            </p>
          )}
          {mayConfigure && (
            <button type="submit" class="button button-primary" disabled={busy}>
              {busy ? 'Saving…' : 'Save the look'}
            </button>
          )}
        </form>
        <figure class="checkout-preview" aria-label="Preview of the checkout page">
          <div class="checkout-preview-card" style={{ borderTopColor: color }}>
            <div class="checkout-preview-top">
              <span class="checkout-preview-merchant">
                {previewLogo && <img src={previewLogo} alt="" class="checkout-preview-logo" />}
                <span>{shownName || 'Your shop'}</span>
              </span>
              {session.mode === 'test' && <span class="checkout-preview-badge">TEST MODE</span>}
            </div>
            <p class="checkout-preview-amount">Pay €24.50</p>
            <p class="checkout-preview-field">Card number</p>
            <span class="checkout-preview-input" />
            <span class="checkout-preview-button" style={{ backgroundColor: color, color: textColorOn(color) }}>
              Pay €24.50
            </span>
          </div>
          <figcaption class="hint">
            {settings.logo?.type === 'image' && !upload
              ? `Uploaded logo: ${settings.logo.content_type}, ${Math.ceil(settings.logo.size_bytes / 1024)} KB (not drawn here). `
              : ''}
            {settings.logo?.type === 'url' && !upload ? 'The logo address is loaded by the real page only. ' : ''}
            {settings.updated_at
              ? `Last saved ${dateTime(settings.updated_at)}.`
              : 'Nothing saved yet: the page shows your merchant name and the default colour.'}
          </figcaption>
        </figure>
      </div>
    </>
  );
}
