import { buttonTextColorFor, contrastRatio, parseLogoImage, sniffLogoType } from './checkout-branding';

describe("the pay button's text colour (WCAG contrast)", () => {
  it('when the colours are black and white, then the contrast ratio is 21:1, and a colour against itself is 1:1', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1d4ed8', '#1d4ed8')).toBe(1);
  });

  it.each([
    ['#ffd60a', '#000000'],
    ['#1d4ed8', '#ffffff'],
    ['#0a7d32', '#ffffff'],
    ['#22c55e', '#000000'],
    ['#777777', '#000000'],
  ])('when the brand colour is %s, then the button text is %s', (background, text) => {
    expect(buttonTextColorFor(background)).toBe(text);
  });

  it('when any of 4,096 colours spread over the cube is the background, then the chosen text contrasts at least 4.5:1 (WCAG AA)', () => {
    const steps = ['00', '11', '22', '33', '44', '55', '66', '77', '88', '99', 'aa', 'bb', 'cc', 'dd', 'ee', 'ff'];
    let worst = 21;
    for (const r of steps)
      for (const g of steps)
        for (const b of steps) {
          const background = `#${r}${g}${b}`;
          worst = Math.min(worst, contrastRatio(background, buttonTextColorFor(background)));
        }
    expect(worst).toBeGreaterThanOrEqual(4.5);
  });
});

describe("an uploaded logo's type, read from its bytes", () => {
  it('when the bytes start as PNG, JPEG or WebP, then that is the type, whatever the name or claim', () => {
    expect(sniffLogoType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffLogoType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffLogoType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
  });

  it('when the bytes are an SVG, a GIF or HTML, then it is no logo', () => {
    expect(sniffLogoType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffLogoType(Buffer.from('GIF89a'))).toBeNull();
    expect(() => parseLogoImage(Buffer.from('<html><script>alert(1)</script></html>').toString('base64'))).toThrow(/PNG, JPEG or WebP/);
  });
});
