// What the AI step is shown of a page: a compact summary built from plain records the rule engine
// already holds (title, language, heading outline, landmarks, images, links, form controls and the
// deterministic result per criterion), never the raw HTML. Every list and every string has a hard
// cap, and the whole summary a budget in serialised characters, so a page of any size yields a
// prompt of bounded size: a huge page costs no more tokens, time or money than a large one, and
// cannot push the instructions out of a small model's context.
//
// Selectors are never truncated (a cut selector names nothing the answer could be checked
// against): a record whose selector is over the cap is left out and counted in `omitted`.
import { normalizeText, truncate } from '../../page.ts';

/** Caps on counts and string lengths. Sized so that the worst case stays near SUMMARY_MAX_CHARS. */
export const SUMMARY_LIMITS = {
  headings: 40,
  landmarks: 15,
  images: 30,
  links: 60,
  formControls: 30,
  results: 60,
  /** Title, heading text, link text, labels, landmark names. */
  text: 120,
  alt: 160,
  context: 160,
  href: 120,
  /** Language tags are short (BCP 47 tags in practice stay under 35 characters). */
  lang: 35,
  textSample: 600,
  resultEvidence: 120,
  /** Records with a longer selector are left out rather than cut. */
  selector: 200,
} as const;

/** Budget for the serialised summary (JSON characters); lists are shortened from the end to fit. */
export const SUMMARY_MAX_CHARS = 32_000;

export type ResultOutcome = 'pass' | 'fail' | 'inconclusive';

/** The plain records the engine supplies; every field but selectors is optional and may be huge. */
export interface SummaryInput {
  title?: string | null;
  /** Selector of the `<title>` element; default `title`. */
  titleSelector?: string;
  /** The `lang` of the root element as written; null or absent when none is declared. */
  lang?: string | null;
  /** Selector of the element carrying the page language; default `html`. */
  langSelector?: string;
  /** Some of the page's visible text, so the declared language can be compared with the content. */
  textSample?: string;
  headings?: readonly { level: number; text: string; selector: string }[];
  landmarks?: readonly { role: string; name?: string; selector: string }[];
  images?: readonly { alt: string; src?: string; context?: string; selector: string }[];
  /** `context`: the link's programmatic context (its sentence, paragraph, list item or cell). */
  links?: readonly { text: string; href?: string; context?: string; selector: string }[];
  formControls?: readonly { role: string; label: string; selector: string }[];
  /** The deterministic engine's verdict per criterion of the requested standard. */
  results?: readonly { criterion: string; outcome: ResultOutcome; evidence?: string }[];
}

export interface SummaryHeading {
  level: number;
  text: string;
  selector: string;
}
export interface SummaryLandmark {
  role: string;
  name: string;
  selector: string;
}
export interface SummaryImage {
  alt: string;
  src: string;
  context: string;
  selector: string;
}
export interface SummaryLink {
  text: string;
  href: string;
  context: string;
  selector: string;
}
export interface SummaryFormControl {
  role: string;
  label: string;
  selector: string;
}
export interface SummaryResult {
  criterion: string;
  outcome: ResultOutcome;
  evidence: string;
}

type ListName = 'headings' | 'landmarks' | 'images' | 'links' | 'formControls' | 'results';
const LISTS: readonly ListName[] = ['headings', 'landmarks', 'images', 'links', 'formControls', 'results'];

export interface PageSummary {
  title: { text: string; selector: string } | null;
  lang: { value: string; selector: string } | null;
  textSample: string;
  headings: SummaryHeading[];
  landmarks: SummaryLandmark[];
  images: SummaryImage[];
  links: SummaryLink[];
  formControls: SummaryFormControl[];
  results: SummaryResult[];
  /** Records of each list not shown (over a cap, over the budget, or with an over-long selector). */
  omitted: Record<ListName, number>;
}

/** Whitespace collapsed, invisible characters removed, cut to `max` with an ellipsis. */
function text(value: string | null | undefined, max: number): string {
  const normal = normalizeText(value ?? '');
  return normal.length <= max ? normal : `${truncate(normal, max - 1)}…`;
}

function selectorOk(selector: string): boolean {
  return selector !== '' && selector.length <= SUMMARY_LIMITS.selector;
}

/** The first `cap` records with a usable selector, mapped; counts what was left out. */
function take<I extends { selector: string }, O>(input: readonly I[] | undefined, cap: number, map: (item: I) => O): { kept: O[]; omitted: number } {
  const kept: O[] = [];
  if (input === undefined) return { kept, omitted: 0 };
  // Only the head of the list is read: a list of a million records costs `cap` mappings.
  for (let i = 0; i < input.length && kept.length < cap; i++) {
    const item = input[i]!;
    const selector = item.selector.trim();
    if (selectorOk(selector)) kept.push(map({ ...item, selector }));
  }
  return { kept, omitted: input.length - kept.length };
}

export function buildSummary(input: SummaryInput): PageSummary {
  const L = SUMMARY_LIMITS;
  const headings = take(input.headings, L.headings, (h) => ({
    level: Number.isInteger(h.level) ? Math.min(6, Math.max(1, h.level)) : 2,
    text: text(h.text, L.text),
    selector: h.selector,
  }));
  const landmarks = take(input.landmarks, L.landmarks, (l) => ({ role: text(l.role, 40), name: text(l.name, L.text), selector: l.selector }));
  const images = take(input.images, L.images, (i) => ({
    alt: text(i.alt, L.alt),
    src: text(i.src, L.href),
    context: text(i.context, L.context),
    selector: i.selector,
  }));
  const links = take(input.links, L.links, (l) => ({
    text: text(l.text, L.text),
    href: text(l.href, L.href),
    context: text(l.context, L.context),
    selector: l.selector,
  }));
  const formControls = take(input.formControls, L.formControls, (f) => ({ role: text(f.role, 40), label: text(f.label, L.text), selector: f.selector }));
  const results = (input.results ?? []).slice(0, L.results).map((r) => ({
    criterion: text(r.criterion, 10),
    outcome: r.outcome,
    evidence: text(r.evidence, L.resultEvidence),
  }));
  const titleText = text(input.title, L.text);
  const titleSelector = (input.titleSelector ?? 'title').trim();
  const langValue = text(input.lang, L.lang);
  const langSelector = (input.langSelector ?? 'html').trim();
  const summary: PageSummary = {
    title: titleText !== '' && selectorOk(titleSelector) ? { text: titleText, selector: titleSelector } : null,
    lang: langValue !== '' && selectorOk(langSelector) ? { value: langValue, selector: langSelector } : null,
    textSample: text(input.textSample, L.textSample),
    headings: headings.kept,
    landmarks: landmarks.kept,
    images: images.kept,
    links: links.kept,
    formControls: formControls.kept,
    results,
    omitted: {
      headings: headings.omitted,
      landmarks: landmarks.omitted,
      images: images.omitted,
      links: links.omitted,
      formControls: formControls.omitted,
      results: (input.results?.length ?? 0) - results.length,
    },
  };
  fitBudget(summary);
  return summary;
}

/**
 * Shortens the lists, always the one that takes the most room, until the serialised summary fits
 * SUMMARY_MAX_CHARS. The per-item sizes are measured once, so this is linear in the kept items.
 */
function fitBudget(summary: PageSummary): void {
  const sizes = new Map<ListName, number[]>();
  const totals = new Map<ListName, number>();
  let total = JSON.stringify(summary).length;
  if (total <= SUMMARY_MAX_CHARS) return;
  for (const name of LISTS) {
    // +1 for the comma between items.
    const list = (summary[name] as unknown[]).map((item) => JSON.stringify(item).length + 1);
    sizes.set(name, list);
    totals.set(name, list.reduce((a, b) => a + b, 0));
  }
  while (total > SUMMARY_MAX_CHARS) {
    let largest: ListName | undefined;
    for (const name of LISTS) if (largest === undefined || totals.get(name)! > totals.get(largest)!) largest = name;
    const list = summary[largest!] as unknown[];
    if (list.length === 0) break; // only fixed-size fields left; they are capped on their own
    list.pop();
    const size = sizes.get(largest!)!.pop()!;
    totals.set(largest!, totals.get(largest!)! - size);
    summary.omitted[largest!]++;
    // The omitted count may gain a digit; 1 character per removal covers it.
    total -= size - 1;
  }
}
