// Text folding for link-name matching. Link names are short, so each is folded whole and then
// compared with folded vocabulary: lower case, accents removed ("Datenschutzerklärung" →
// "datenschutzerklarung", "confidentialité" → "confidentialite"), apostrophes dropped ("Don't" →
// "dont"), soft hyphens and zero-width characters removed, "&" and "+" spelt "and", and every
// other run of non-letters/digits one space. Matching is then on whole words: a phrase matches
// when it is bounded by the start, the end or a space.

const MARKS = /\p{M}+/gu;
/** Invisible formatting characters inside words (soft hyphen, zero-width space/joiners, BOM). */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
const APOSTROPHES = /['\u2019\u2018`\u00b4]/g;
const AND = /[&+]/g;
const NON_WORD = /[^\p{L}\p{N}]+/gu;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_APOSTROPHES = /['`]/g;
const ASCII_NON_WORD = /[^a-z0-9]+/g;

/** Folds text for matching (see the file comment). The same function folds the vocabulary. */
export function fold(text: string): string {
  // Most names and URL segments are plain ASCII: nothing to decompose, and no ß.
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(ASCII_APOSTROPHES, '').replace(AND, ' and ').replace(ASCII_NON_WORD, ' ').trim();
  return text
    .replace(INVISIBLE, '')
    .normalize('NFD')
    .replace(MARKS, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(APOSTROPHES, '')
    .replace(AND, ' and ')
    .replace(NON_WORD, ' ')
    .trim();
}

/** Escapes a folded phrase for use inside a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regex that finds any of the (already folded) phrases or regex sources on whole words. */
export function wordsRegex(sources: readonly string[]): RegExp {
  return new RegExp(`(?:^| )(?:${sources.join('|')})(?= |$)`, 'u');
}

/** Number of words of a folded text. */
export function wordCount(folded: string): number {
  return folded === '' ? 0 : folded.split(' ').length;
}

/**
 * Splits a link name into the parts a list of links shares one element with: "Terms of Use /
 * Privacy Policy", "Privacy Notice | Your California Privacy Rights", "Privacy Policy (updated
 * May 2013)", "Terms, Conditions & Privacy Information". Each part is folded; empty parts dropped.
 */
export function foldedParts(text: string): string[] {
  return text
    .split(/[/|·•,;:()[\]\u2013\u2014&+]|\s-\s|\s(?:and|und|et|y|e|en)\s/iu)
    .map(fold)
    .filter((part) => part !== '');
}
