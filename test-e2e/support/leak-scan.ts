import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * What a leak scan looks for. Account numbers: plain digits and grouped with spaces the way they
 * are printed (4-4-4-4, AMEX 4-6-5). Security codes are short, so they are looked for only where
 * they would stand as card data: a quoted value ("847"), a form value (card[cvc]=847) or a
 * cvc/cvv key's value, in JSON text or in JSON escaped inside another string.
 */
export interface Needle {
  label: string;
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function spacedForms(pan: string): string[] {
  const groups = pan.length === 15 ? [4, 6, 5] : [4, 4, 4, 4, 4].slice(0, Math.ceil(pan.length / 4));
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= pan.length) break;
    parts.push(pan.slice(at, at + size));
    at += size;
  }
  return [parts.join(' '), pan.replace(/(\d{4})(?=\d)/g, '$1 ')].filter((form, i, all) => all.indexOf(form) === i);
}

export function accountNumberNeedles(pans: string[]): Needle[] {
  return pans.flatMap((pan) => [pan, ...spacedForms(pan)].map((form) => ({ label: `account number "${form}"`, pattern: new RegExp(escape(form)) })));
}

/** Distinctive codes (such as 847, 9731): any quoted or form-encoded occurrence counts. */
export function distinctiveCodeNeedles(codes: string[]): Needle[] {
  return codes.map((code) => ({
    label: `security code ${code} as a value`,
    pattern: new RegExp(`(\\\\?["']${code}\\\\?["']|(\\]|%5D|cvc|cvv)=${code}(?![0-9]))`, 'i'),
  }));
}

/** Ordinary codes (such as 001): only as the value of a cvc/cvv/security_code key or form field. */
export function keyedCodeNeedles(codes: string[]): Needle[] {
  return [...new Set(codes)].map((code) => ({
    label: `security code ${code} under a cvc key`,
    pattern: new RegExp(`(cvc|cvv|security_code)(\\\\?["']\\s*:\\s*\\\\?["']|(\\]|%5D)?=)${code}(?![0-9])`, 'i'),
  }));
}

export interface Hit {
  where: string;
  needle: string;
  excerpt: string;
}

export function scanText(where: string, text: string, needles: Needle[]): Hit[] {
  const hits: Hit[] = [];
  for (const needle of needles) {
    const match = needle.pattern.exec(text);
    if (match) {
      // The excerpt names the place without quoting the card data itself.
      const start = Math.max(0, match.index - 40);
      const excerpt = `${text.slice(start, match.index)}<…>${text.slice(match.index + match[0].length, match.index + match[0].length + 40)}`;
      hits.push({ where, needle: needle.label, excerpt });
    }
  }
  return hits;
}

/** Every file under the directory, as raw bytes read as latin1 (one char per byte, so digits stay digits). */
export function scanDirectory(dir: string, needles: Needle[], include: (name: string) => boolean = () => true): { files: string[]; hits: Hit[] } {
  const files: string[] = [];
  const hits: Hit[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (include(name)) {
        files.push(relative(dir, path));
        hits.push(...scanText(relative(dir, path), readFileSync(path).toString('latin1'), needles));
      }
    }
  };
  walk(dir);
  return { files, hits };
}

export const isSqliteFile = (name: string): boolean => /\.db(-wal|-shm|-journal)?$/.test(name);
