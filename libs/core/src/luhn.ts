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

/**
 * A UUID (8-4-4-4-12 hex digits, not glued to another hex digit), or else a run of at least 13 digits, each
 * joined to the next by at most one space or dash. Every id we mint is a UUID: its last groups can hold 13
 * or more digits across a dash (`…-a990-620464640970`), which is never how a card number is written, so a
 * UUID is matched whole and kept as it is instead of having its digits masked in logs and answers.
 */
const UUID_OR_DIGIT_RUN = /(?<![0-9a-f])([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f])|\d(?:[ -]?\d){12,}/gi;
const MIN_PAN = 13;
const MAX_PAN = 19;

/**
 * Masks every Luhn-valid window of 13–19 digits in `text`, wherever it sits: inside a longer run
 * of digits, or across single spaces and dashes (`12 4242424242424242`, `4242-4242-4242-4242 123`);
 * never inside a UUID.
 * Of each such window at most the first six and last four digits stay visible; every other digit
 * becomes `*` in place, separators and all other characters kept. The last line of defence in logs
 * and in responses from destinations.
 *
 * Linear in the text: one regex pass finds the runs; in each run, prefix sums of the digits (doubled
 * or not, for either parity of the window's last digit) give each window's Luhn sum in O(1), and a
 * difference array collects the masked digits.
 */
export function maskPans(text: string): string {
  return text.replace(UUID_OR_DIGIT_RUN, (match: string, uuid: string | undefined) => (uuid === undefined ? maskRun(match) : match));
}

// Scratch space reused by every run (maskRun never yields, so one set serves every caller).
let positions = new Int32Array(64);
let evenUndoubled = new Int32Array(65);
let oddUndoubled = new Int32Array(65);
let maskDelta = new Int32Array(65);

function maskRun(run: string): string {
  if (run.length + 1 > evenUndoubled.length) {
    const size = 2 * run.length + 1;
    positions = new Int32Array(size);
    evenUndoubled = new Int32Array(size + 1);
    oddUndoubled = new Int32Array(size + 1);
    maskDelta = new Int32Array(size + 1);
  }
  // evenUndoubled[k]: Luhn sum of digits 0..k-1 when the digits at even indexes are the undoubled ones.
  let count = 0;
  for (let i = 0; i < run.length; i++) {
    const digit = run.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) continue;
    const doubled = digit > 4 ? digit * 2 - 9 : digit * 2;
    positions[count] = i;
    evenUndoubled[count + 1] = evenUndoubled[count]! + (count % 2 === 0 ? digit : doubled);
    oddUndoubled[count + 1] = oddUndoubled[count]! + (count % 2 === 0 ? doubled : digit);
    count += 1;
  }
  let found = false;
  for (let end = MIN_PAN; end <= count; end++) {
    // The last digit of a window is never doubled: its parity says which sums apply.
    const sums = (end - 1) % 2 === 0 ? evenUndoubled : oddUndoubled;
    const top = sums[end]!;
    for (let length = MIN_PAN; length <= MAX_PAN && length <= end; length++) {
      if ((top - sums[end - length]!) % 10 !== 0) continue;
      if (!found) maskDelta.fill(0, 0, count + 1);
      found = true;
      maskDelta[end - length + 6]! += 1;
      maskDelta[end - 4]! -= 1;
    }
  }
  if (!found) return run;
  let out = '';
  let from = 0;
  let depth = 0;
  for (let j = 0; j < count; j++) {
    depth += maskDelta[j]!;
    if (depth > 0) {
      out += run.slice(from, positions[j]) + '*';
      from = positions[j]! + 1;
    }
  }
  return out + run.slice(from);
}

/** First six and last four digits kept, the rest as asterisks (PCI DSS 3.4.1). */
export function maskAccountNumber(digits: string): string {
  if (digits.length < 13) return '*'.repeat(digits.length);
  return digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
}
