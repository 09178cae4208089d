// Ordinary-but-crafted pages that made the WCAG style cascade slow (issue 16, fault trial), all
// under the crawl's 2 MiB limit. Generated, for the cascade's tests and the bench.

export interface PathologicalPage {
  name: string;
  html: string;
}

/** 20,000 × `<style>p{color:red}</style><p>x</p>` (about 700 KB): 20,000 rules with one selector, 20,000 paragraphs. */
export function identicalRulesPage(copies = 20_000, text = 'x'): string {
  return `<style>p{color:red}</style><p>${text}</p>`.repeat(copies);
}

/** One `:nth-last-of-type(2)` rule over 100,000 sibling paragraphs (about 800 KB). */
export function siblingsPage(siblings = 100_000): string {
  return `<style>:nth-last-of-type(2){color:red}</style>${'<p>x</p>'.repeat(siblings)}`;
}

/**
 * 10,000 distinct rules that every paragraph is a candidate for (`.c p:nth-child(i)`) over 1,000
 * sections of 35 paragraphs: about 36,000 elements, 1.97 MB. Matching every rule against every
 * paragraph is 360 million attempts.
 */
export function manyRulesPage(rules = 10_000, sections = 1_000, paragraphs = 35): string {
  const css: string[] = [];
  for (let i = 0; i < rules; i++) css.push(`.c p:nth-child(${i + 1}){color:#${(i * 97).toString(16).padStart(6, '0').slice(-6)}}`);
  const section = `<div class="c">${'<p class="t">Lorem ipsum dolor sit amet.</p>\n'.repeat(paragraphs)}</div>\n`;
  return `<!doctype html><html lang="en"><head><title>Many rules</title><style>${css.join('\n')}</style></head><body>${section.repeat(sections)}</body></html>`;
}

/**
 * 50 rules whose ancestor part has no key for the Bloom filter (`[data-x7] div`) over a chain of
 * 2,000 nested `<div>` (the page model's depth limit is 2,048): few match attempts (100,000), but
 * each walks every ancestor, 100 million steps in all, on a 23 KB page.
 */
export function deepAncestorsPage(depth = 2_000, rules = 50): string {
  const css = Array.from({ length: rules }, (_, i) => `[data-x${i}] div{color:red}`).join('');
  return `<style>${css}</style>${'<div>'.repeat(depth)}text${'</div>'.repeat(depth)}`;
}

export function pathologicalPages(): PathologicalPage[] {
  return [
    { name: '20,000 identical rules (p{color:red}) × 20,000 <p>', html: identicalRulesPage() },
    { name: ':nth-last-of-type(2) over 100,000 sibling <p>', html: siblingsPage() },
    { name: '10,000 rules × 36,000 elements', html: manyRulesPage() },
    { name: '50 keyless-ancestor rules × 2,000 nested <div>', html: deepAncestorsPage() },
  ];
}
