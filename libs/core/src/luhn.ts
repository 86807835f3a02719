/** True when a digit string passes the Luhn (mod 10) check. */
export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    const code = digits.charCodeAt(i) - 48;
    if (code < 0 || code > 9) return false;
    let d = code;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;

/**
 * Replaces every Luhn-valid run of 13–19 digits (spaces or dashes allowed between digits)
 * with a masked form. The last line of defence in logs and in responses from destinations.
 */
export function maskPans(text: string, mask: (digits: string) => string = defaultMask): string {
  if (!/\d{4}/.test(text)) return text;
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19) return run;
    return isLuhnValid(digits) ? mask(digits) : run;
  });
}

/** First six and last four digits kept, the rest as asterisks (PCI DSS 3.4.1). */
export function maskAccountNumber(digits: string): string {
  if (digits.length < 13) return '*'.repeat(digits.length);
  return digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
}

function defaultMask(digits: string): string {
  return maskAccountNumber(digits);
}
