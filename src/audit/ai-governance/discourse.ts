// The page as a reader meets it: sections (a heading and the blocks under it, cut at the page's
// landmarks), sentences inside blocks, and which of them are about an AI system. Built once per
// page over the evidence corpus (its offsets are shared, so quotes and locations keep working)
// and read by every text control.
//
// Why: phrase lists matched across adjacent words fit the wording of whoever wrote them. A
// reader instead takes "Its job is to sort incoming tickets" as a purpose statement because the
// section it sits in, or the sentence before it, is about the AI system. So a control asks for
// a topic cue (a purpose verb, a training verb, a review verb, an artifact noun) inside a
// sentence that is AI-related, and not negated.
import type { Element } from 'domhandler';
import type { Link, Page } from '../page.ts';
import { corpusOf, type Corpus, type Hit } from './evidence.ts';
import { AGENCY_CREDIT, AI_TERMS, DETERMINER, EDITORIAL_MARK, NOT_A_NEGATION, negationFor, SYSTEM_NAME_DECLARATION, SYSTEM_NOUNS, UNASSERTED, WITHOUT, findAll, type Lexeme } from './lexicon.ts';

export interface Section {
  /** The heading sentence, or null for a landmark's untitled start. */
  heading: Sentence | null;
  /** 1–6 for h1–h6, 7 for a record's key (`<summary>`, `<dt>`, a row's `<th>`), 0 for a landmark root. */
  level: number;
  parent: Section | null;
  /** The landmark the section sits in: `main`, `header`, `nav`, `footer`, `aside` or `body`. */
  landmark: Landmark;
  /** The section's own sentences (heading excluded), in reading order. */
  sentences: Sentence[];
  /** Memo of `isAiSection`. */
  ai?: boolean;
}

export type Landmark = 'main' | 'header' | 'nav' | 'footer' | 'aside' | 'body';

export interface Sentence {
  /** Offsets in `Corpus.text`. */
  start: number;
  end: number;
  text: string;
  lower: string;
  /** Index of the text block, -1 for the title, metas, JSON-LD and link names. */
  blockIndex: number;
  /** Null outside the visible text (title, meta, JSON-LD, link names). */
  section: Section | null;
  isHeading: boolean;
  /** Memo of `mentionsAi`. */
  ai?: boolean;
  /** The page's lexeme hits, shared by its sentences (see `hitsIn`). */
  hits: PageHits;
}

/**
 * Each lexeme runs once over the page's whole text, the first time any sentence asks for it;
 * sentences then take their share by offset. Running every lexeme per sentence cost more in call
 * overhead than in matching.
 */
class PageHits {
  private readonly byLexeme = new Map<Lexeme, Hit[]>();
  private readonly corpus: Corpus;
  constructor(corpus: Corpus) {
    this.corpus = corpus;
  }

  /** The hits lying wholly inside `[start, end)`, by position. */
  within(lexeme: Lexeme, start: number, end: number): Hit[] {
    let all = this.byLexeme.get(lexeme);
    if (all === undefined) {
      all = findAll(lexeme, this.corpus.text, this.corpus.lower, Number.POSITIVE_INFINITY);
      this.byLexeme.set(lexeme, all);
    }
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (all[mid]!.start < start) lo = mid + 1;
      else hi = mid;
    }
    const out: Hit[] = [];
    for (let i = lo; i < all.length && all[i]!.start < end; i++) if (all[i]!.end <= end) out.push(all[i]!);
    return out;
  }
}

export interface Discourse {
  corpus: Corpus;
  sentences: readonly Sentence[];
  sections: readonly Section[];
  /** Lower-cased names the page gives its AI system ("Aria", "ClaimSense 2"), longest first. */
  systemNames: readonly string[];
  /** The title or h1 is about an AI system. */
  pageAboutAi: boolean;
  /** A byline or genre label marks the page as news, review or opinion (see EDITORIAL_MARK). */
  editorial: boolean;
  /** The negation words of the page's language. */
  negation: Lexeme;
  /**
   * The page documents an AI system of its own without a disclosure sentence (a model card, a
   * training statement about its model: see own-system.ts). Its main content is then read as
   * about that system, as on a page whose title names AI. Set by `ownSystemOf`.
   */
  documentsSystem: boolean;
  /** The page's language, two lower-case letters (`<html lang>`), or '' when unknown. */
  lang: string;
  /** Common nouns the page uses for its own disclosed system ("the coach", "das System"); set by `ownSystemOf` (system-aliases.ts). */
  systemAliases: readonly string[];
}

const discourses = new WeakMap<Page, Discourse>();

export function discourseOf(page: Page): Discourse {
  let discourse = discourses.get(page);
  if (discourse === undefined) {
    discourse = build(corpusOf(page));
    discourses.set(page, discourse);
  }
  return discourse;
}

/** The heading level of a record's key: below every h1–h6, so a key heads only its own value. */
export const RECORD_LEVEL = 7;
const HEADING_LEVEL: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6, summary: RECORD_LEVEL, dt: RECORD_LEVEL };
/**
 * A block's heading level: h1–h6, and 7 for the key of a record: a `<summary>`, a `<dt>`, or a
 * row header (`<th>` followed by a `<td>`: "Training data | Half-hourly meter readings …"), so
 * the value reads as the content of its key.
 */
function headingLevelOf(el: Element | null): number | undefined {
  if (el === null) return undefined;
  if (el.name === 'th') return nextElement(el)?.name === 'td' ? RECORD_LEVEL : undefined;
  // The first of a row's two cells, "Vendor | Kestrel Legal Technologies Ltd", is its key.
  if (el.name === 'td') return previousElement(el) === null && nextElement(el)?.name === 'td' && nextElement(nextElement(el)!) === null ? RECORD_LEVEL : undefined;
  return HEADING_LEVEL[el.name];
}

function nextElement(el: Element): Element | null {
  for (let n = el.next; n !== null; n = n.next) if (n.type === 'tag') return n as Element;
  return null;
}

function previousElement(el: Element): Element | null {
  for (let n = el.prev; n !== null; n = n.prev) if (n.type === 'tag') return n as Element;
  return null;
}

/**
 * The table or description list a record's block belongs to: fields of one record group
 * describe one thing ("Model | GridCast 5.2", "Model provider | Voltaic Analytics B.V.").
 */
export function recordGroupOf(corpus: Corpus, s: Sentence): Element | null {
  for (let el = corpus.page.textBlocks[s.blockIndex]?.element ?? null; el !== null; el = el.parent?.type === 'tag' ? (el.parent as Element) : null) {
    if (el.name === 'table' || el.name === 'dl') return el;
    if (el.name === 'body') return null;
  }
  return null;
}

/** One field of a record: its key and its value, as corpus spans. */
export interface Field {
  key: string;
  /** The value's text and its span in the corpus. */
  value: string;
  start: number;
  end: number;
  /** The sentence the value starts in. */
  sentence: Sentence;
}

/** A record: the fields of one table, description list, details group or "Key: value" list, in order. */
export interface RecordGroup {
  container: Element | null;
  fields: Field[];
}

const records = new WeakMap<Discourse, RecordGroup[]>();

/**
 * The page's records, memoised: the fields of a table ("Provider | Nexadata S.r.l."), a
 * description list, details, or a list whose items read "Key: value" ("Model: ClaimSort v3.1").
 * Fields of one record describe one thing.
 */
export function recordsOf(d: Discourse): RecordGroup[] {
  let found = records.get(d);
  if (found === undefined) {
    found = readRecords(d);
    records.set(d, found);
  }
  return found;
}

/** A "Key: value" item: a short key without a full stop, then its value. */
const KEY_VALUE = /^([^:.!?]{1,40}):\s+(\S.*)$/su;
/** Fields read per record and records per page, so a huge table stays cheap. */
const MAX_FIELDS = 40;
const MAX_RECORDS = 60;

function readRecords(d: Discourse): RecordGroup[] {
  const out: RecordGroup[] = [];
  const byContainer = new Map<Element, RecordGroup>();
  const groupFor = (container: Element | null): RecordGroup | undefined => {
    if (container !== null) {
      const known = byContainer.get(container);
      if (known !== undefined) return known.fields.length < MAX_FIELDS ? known : undefined;
    }
    if (out.length >= MAX_RECORDS) return undefined;
    const group: RecordGroup = { container, fields: [] };
    out.push(group);
    if (container !== null) byContainer.set(container, group);
    return group;
  };
  for (const section of d.sections) {
    if (section.level !== RECORD_LEVEL || section.heading === null) continue;
    const first = section.sentences[0];
    if (first === undefined) continue;
    const last = section.sentences.at(-1)!;
    groupFor(recordContainers.get(section) ?? null)?.fields.push({ key: section.heading.text, value: d.corpus.text.slice(first.start, last.end), start: first.start, end: last.end, sentence: first });
  }
  for (const s of d.sentences) {
    if (s.isHeading || s.blockIndex < 0) continue;
    const element = d.corpus.page.textBlocks[s.blockIndex]?.element ?? null;
    if (element?.name !== 'li' || s.start !== d.corpus.page.textBlocks[s.blockIndex]!.start) continue;
    const m = KEY_VALUE.exec(s.text);
    if (m === null) continue;
    const list = element.parent?.type === 'tag' ? (element.parent as Element) : null;
    const start = s.start + s.text.length - m[2]!.length;
    groupFor(list)?.fields.push({ key: m[1]!.trim(), value: m[2]!, start, end: s.end, sentence: s });
  }
  // A table with a header row ("Partner | Technology | Version in use") and rows of cells under it:
  // each row is a record whose keys are the column headers.
  for (const group of columnRecords(d)) if (out.length < MAX_RECORDS) out.push(group);
  return out.filter((g) => g.fields.length > 0);
}

/** Rows of tables with a header row of `<th>` and rows of as many `<td>` cells, as records keyed by the headers. */
function columnRecords(d: Discourse): RecordGroup[] {
  const blocks = d.corpus.page.textBlocks;
  const tables = new Map<Element, Map<Element, number[]>>();
  blocks.forEach((block, index) => {
    const cell = block.element;
    if (cell === null || (cell.name !== 'td' && cell.name !== 'th')) return;
    const row = cell.parent?.type === 'tag' ? (cell.parent as Element) : null;
    if (row === null || row.name !== 'tr') return;
    let table: Element | null = row;
    for (let steps = 0; table !== null && table.name !== 'table' && steps < 3; steps++) table = table.parent?.type === 'tag' ? (table.parent as Element) : null;
    if (table === null || table.name !== 'table') return;
    let rows = tables.get(table);
    if (rows === undefined) tables.set(table, (rows = new Map()));
    let cells = rows.get(row);
    if (cells === undefined) rows.set(row, (cells = []));
    cells.push(index);
  });
  const firstSentence = new Map<number, Sentence>();
  for (const s of d.sentences) if (s.blockIndex >= 0 && !firstSentence.has(s.blockIndex)) firstSentence.set(s.blockIndex, s);
  const out: RecordGroup[] = [];
  for (const [table, rows] of tables) {
    const [header, ...body] = [...rows.values()];
    if (header === undefined || header.length < 2 || !header.every((i) => blocks[i]!.element!.name === 'th')) continue;
    for (const cells of body.slice(0, MAX_RECORDS)) {
      if (cells.length !== header.length || !cells.every((i) => blocks[i]!.element!.name === 'td')) continue;
      const fields: Field[] = [];
      cells.forEach((i, column) => {
        const sentence = firstSentence.get(i);
        if (sentence === undefined) return;
        const block = blocks[i]!;
        fields.push({ key: blocks[header[column]!]!.text, value: block.text, start: block.start, end: block.start + block.text.length, sentence });
      });
      out.push({ container: table, fields });
    }
  }
  return out;
}

const LANDMARK_TAGS: Readonly<Record<string, Landmark>> = { main: 'main', header: 'header', nav: 'nav', footer: 'footer', aside: 'aside' };
const LANDMARK_ROLES: Readonly<Record<string, Landmark>> = { main: 'main', banner: 'header', navigation: 'nav', contentinfo: 'footer', complementary: 'aside' };
/** Ancestors examined for a landmark; deeper nesting counts as `body`. */
const LANDMARK_DEPTH = 64;

function landmarkOf(element: Element | null, memo: Map<Element, Landmark>): Landmark {
  const path: Element[] = [];
  let found: Landmark = 'body';
  for (let el: Element | null = element, steps = 0; el !== null && steps < LANDMARK_DEPTH; steps++) {
    const known = memo.get(el);
    if (known !== undefined) {
      found = known;
      break;
    }
    path.push(el);
    const byTag = LANDMARK_TAGS[el.name];
    const byRole = LANDMARK_ROLES[(el.attribs.role ?? '').trim().toLowerCase()];
    if (byTag ?? byRole) {
      found = (byTag ?? byRole)!;
      break;
    }
    el = el.parent !== null && el.parent.type === 'tag' ? (el.parent as Element) : null;
  }
  for (const el of path) memo.set(el, found);
  return found;
}

/**
 * Sentence ends: `.`, `!`, `?`, `;` or `…` followed by a space and something that can start a
 * sentence. "v2.1", "e.g. the" and "Inc. in" stay whole; "Inc. The" splits, which costs little.
 */
const SENTENCE_END = /[.!?;…]["”’)]?(?= +["“‘(¿¡]?[\p{Lu}\d])/gu;

function build(corpus: Corpus): Discourse {
  const page = corpus.page;
  const hits = new PageHits(corpus);
  const sentences: Sentence[] = [];
  const sections: Section[] = [];
  const landmarks = new Map<Element, Landmark>();
  let current: Section | null = null;
  let currentLandmark: Landmark | null = null;

  page.textBlocks.forEach((block, blockIndex) => {
    const landmark = landmarkOf(block.element, landmarks);
    const level = headingLevelOf(block.element);
    if (landmark !== currentLandmark || current === null) {
      current = { heading: null, level: 0, parent: null, landmark, sentences: [] };
      sections.push(current);
      currentLandmark = landmark;
    }
    // A record's key heads its value only inside its record (table, description list, details):
    // the paragraph after a table belongs to the section the table sits in, not to its last row.
    while (current.level === RECORD_LEVEL && current.parent !== null && !inside(block.element, recordContainer(current))) current = current.parent;
    if (level !== undefined) {
      let parent: Section | null = current;
      while (parent !== null && parent.level >= level) parent = parent.parent;
      const heading = sentence(corpus, hits, block.start, block.start + block.text.length, blockIndex, null, true);
      current = { heading, level, parent, landmark, sentences: [] };
      if (level === RECORD_LEVEL) recordContainers.set(current, containerOf(block.element));
      heading.section = current;
      sections.push(current);
      sentences.push(heading);
      return;
    }
    for (const s of split(corpus, hits, block.start, block.start + block.text.length, blockIndex, current)) {
      sentences.push(s);
      current.sentences.push(s);
    }
  });
  // The title and the names of links (aria-label, title, alt), outside any section. Metas and
  // JSON-LD are left out: a visitor never sees them, and a signal must be visible.
  for (const segment of corpus.segments) {
    if (segment.where === 'JSON-LD' || segment.where.startsWith('meta ')) continue;
    sentences.push(...split(corpus, hits, segment.start, segment.end, -1, null));
  }

  const systemNames = findSystemNames(sentences);
  const editorial = isEditorial(page);
  const discourse: Discourse = { corpus, sentences, sections, systemNames, pageAboutAi: false, editorial, negation: negationFor(page.lang), documentsSystem: false, lang: page.lang?.slice(0, 2).toLowerCase() ?? '', systemAliases: [] };
  // On a page that names AI, a record's model or system field names the system too ("Model |
  // CreditLens 4.1" › "CreditLens was trained on …"). Records are read only then: most pages name no AI.
  if (sentences.some((s) => hitsIn(s, AI_TERMS).length > 0)) {
    const named = new Set(systemNames);
    for (const name of recordSystemNames(discourse)) if (named.size < MAX_SYSTEM_NAMES) named.add(name);
    discourse.systemNames = [...named].sort((a, b) => b.length - a.length);
  }
  const title = sentences.find((s) => s.blockIndex === -1 && corpus.segments[0]?.where === 'the title' && s.start === corpus.segments[0].start);
  const h1 = sections.find((s) => s.level === 1)?.heading;
  discourse.pageAboutAi = [title, h1].some((s) => s !== undefined && s !== null && isAiSentence(discourse, s));
  return discourse;
}

/** The element a record's key and value live in: its table, description list or details (null: unknown). */
const recordContainers = new WeakMap<Section, Element | null>();
const RECORD_CONTAINERS = new Set(['table', 'dl', 'details']);
/** Ancestors examined for a record's container. */
const CONTAINER_DEPTH = 16;

function containerOf(el: Element | null): Element | null {
  for (let e = el, steps = 0; e !== null && steps < CONTAINER_DEPTH; steps++, e = e.parent?.type === 'tag' ? (e.parent as Element) : null) {
    if (RECORD_CONTAINERS.has(e.name)) return e;
  }
  return null;
}

function recordContainer(section: Section): Element | null {
  return recordContainers.get(section) ?? null;
}

/** Whether `el` lies inside `container` (an unknown container holds everything, as before). */
function inside(el: Element | null, container: Element | null): boolean {
  if (container === null) return true;
  for (let e = el, steps = 0; e !== null && steps < LANDMARK_DEPTH; steps++, e = e.parent?.type === 'tag' ? (e.parent as Element) : null) if (e === container) return true;
  return false;
}

/** The sentences of `[start, end)` of the corpus. */
function split(corpus: Corpus, hits: PageHits, start: number, end: number, blockIndex: number, section: Section | null): Sentence[] {
  const out: Sentence[] = [];
  const text = corpus.text.slice(start, end);
  let from = 0;
  SENTENCE_END.lastIndex = 0;
  for (let match = SENTENCE_END.exec(text); match !== null; match = SENTENCE_END.exec(text)) {
    const to = match.index + match[0].length;
    out.push(sentence(corpus, hits, start + from, start + to, blockIndex, section, false));
    from = to + 1;
  }
  if (from < text.length) out.push(sentence(corpus, hits, start + from, end, blockIndex, section, false));
  return out;
}

/** Article types of schema.org that mark authored content. */
const ARTICLE_TYPE = /^(?:\w*Article|BlogPosting|LiveBlogPosting|Review|OpinionNewsArticle|Report|Column)$/;

/**
 * News, reviews, opinion and blog posts: a byline or genre label in the text, or the page's own
 * metadata saying so (og:type article, an author meta, schema.org Article types), or a news
 * agency's credit near the start of a block ("(EFE)", "(dpa)"). There the AI
 * under discussion is usually someone else's.
 */
function isEditorial(page: Page): boolean {
  // A table cell is data, not a label: "Tribune" heads a stadium's price table.
  const marks = (block: Page['textBlocks'][number]) => block.text.length <= 160 && EDITORIAL_MARK.test(block.text) && !inTableCell(block.element);
  if (page.textBlocks.some((block) => marks(block) || AGENCY_CREDIT.test(block.text.slice(0, 200)))) return true;
  if (page.metas.some((m) => (m.key === 'og:type' && m.content.trim().toLowerCase() === 'article') || m.key === 'author' || m.key === 'article:author')) return true;
  return page.jsonLd.some(({ data }) => jsonLdTypes(data).some((type) => ARTICLE_TYPE.test(type)));
}

function inTableCell(el: Element | null): boolean {
  for (let e = el, steps = 0; e !== null && steps < CONTAINER_DEPTH; steps++, e = e.parent?.type === 'tag' ? (e.parent as Element) : null) {
    if (e.name === 'td' || e.name === 'th') return true;
  }
  return false;
}

/** The `@type`s of a JSON-LD block, its `@graph` included (one level: types nest no deeper in practice). */
function jsonLdTypes(data: unknown): string[] {
  const items = Array.isArray(data) ? data : [data, ...(((data as { '@graph'?: unknown })?.['@graph'] as unknown[]) ?? [])];
  return items.flatMap((item) => {
    const type = (item as { '@type'?: unknown } | null)?.['@type'];
    return typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
  });
}

function sentence(corpus: Corpus, hits: PageHits, start: number, end: number, blockIndex: number, section: Section | null, isHeading: boolean): Sentence {
  return { start, end, text: corpus.text.slice(start, end), lower: corpus.lower.slice(start, end), blockIndex, section, isHeading, hits };
}

/** How many names a page may give its AI system; more would be noise. */
const MAX_SYSTEM_NAMES = 8;

/** Names declared as an AI system: "Aria is our AI assistant", "Meet Aria, …", "Aria (KI-Assistent)". */
function findSystemNames(sentences: readonly Sentence[]): string[] {
  const names = new Set<string>();
  const add = (name: string) => {
    if (name.length >= 3 && !GENERIC_NAME.test(name)) names.add(name.toLowerCase());
  };
  for (const s of sentences) {
    if (names.size >= MAX_SYSTEM_NAMES) break;
    // The name right after a model or system noun: "unser eigenes Triage-Modell HelveTriage", "le modèle Plume".
    NAME_AFTER_MODEL_NOUN.lastIndex = 0;
    for (let m = NAME_AFTER_MODEL_NOUN.exec(s.text); m !== null && names.size < MAX_SYSTEM_NAMES; m = NAME_AFTER_MODEL_NOUN.exec(s.text)) add(m[1]!);
    const terms = hitsIn(s, AI_TERMS);
    if (terms.length === 0) {
      // Without an AI word, a name declared as a program, assistant or tool: "Scout is a computer
      // program, not a person", "Our chat assistant, Scout".
      SYSTEM_NAME_DECLARATION.lastIndex = 0;
      for (let m = SYSTEM_NAME_DECLARATION.exec(s.text); m !== null && names.size < MAX_SYSTEM_NAMES; m = SYSTEM_NAME_DECLARATION.exec(s.text)) {
        if (SYSTEM_NOUN_AFTER.test(s.lower.slice(m.index + m[0].length, m.index + m[0].length + 40))) add((Object.values(m.groups ?? {}).find((group) => group !== undefined) ?? '').trim());
      }
      SYSTEM_NOUN_THEN_NAME.lastIndex = 0;
      for (let m = SYSTEM_NOUN_THEN_NAME.exec(s.text); m !== null && names.size < MAX_SYSTEM_NAMES; m = SYSTEM_NOUN_THEN_NAME.exec(s.text)) add(m[1]!);
      continue;
    }
    // The name in apposition right after the AI term: "a clinical language model, MedLex 2.4, built by …".
    for (const term of terms) {
      APPOSITIVE_NAME.lastIndex = term.end - s.start;
      const apposition = APPOSITIVE_NAME.exec(s.text);
      if (apposition !== null) add(apposition[1]!.trim());
    }
    SYSTEM_NAME_DECLARATION.lastIndex = 0;
    for (let m = SYSTEM_NAME_DECLARATION.exec(s.text); m !== null && names.size < MAX_SYSTEM_NAMES; m = SYSTEM_NAME_DECLARATION.exec(s.text)) {
      add((Object.values(m.groups ?? {}).find((group) => group !== undefined) ?? '').trim());
    }
  }
  return [...names].sort((a, b) => b.length - a.length);
}

/** A record key that names the model or system ("Model", "Modellname", "Nom du modèle", "Sistema"). */
const MODEL_KEY =
  /^(?:(?:ai |ki-|ia )?(?:model|modell|modèle|modelo|modello|system|systeem|système|sistema|software|logiciel|tool|werkzeug|outil|herramienta|strumento|ferramenta|engine|motor|moteur|motore)(?:name|naam| name)?(?: (?:de|di|du) [\p{L}-]+)?|(?:nom|nome|nombre|naam|name) (?:du |do |del |dello |della |van het |van de |des |of the )?(?:modèle|modelo|modello|model|modells|sistema|système|systeem|systems?))$/iu;
/** A capitalised name of up to three words, and a version after it that the name is used without ("CreditLens 4.1" › "creditlens"). */
const RECORD_NAME = /^(\p{Lu}[\p{L}\d’'-]*(?: \p{Lu}[\p{L}\d’'-]*){0,2})(?:,? (?:v(?:ersion|ersie|ersão|ersión|ersione)?\.? ?)?\d[\d.]*)?(?:$|[ ,(;–—-])/u;

function recordSystemNames(d: Discourse): string[] {
  const names: string[] = [];
  for (const group of recordsOf(d)) {
    for (const field of group.fields) {
      if (!MODEL_KEY.test(field.key.trim().replace(/[:\s]+$/u, ''))) continue;
      const name = RECORD_NAME.exec(field.value.trim())?.[1];
      if (name !== undefined && name.length >= 3 && !GENERIC_NAME.test(name)) names.push(name.toLowerCase());
    }
  }
  return names;
}

/** A capitalised name (up to three words, versions included) set off by commas or called so, right after an AI term. */
const APPOSITIVE_NAME = /(?:,| called| named| namens| appelé| llamado| chiamato| genaamd| chamado) (\p{Lu}[\p{L}\d]+(?:[ -][\p{Lu}\d][\p{L}\d.]*){0,2})(?=[,;:(]| (?:is|was|ist|est|es|è|é)(?!\p{L}))/uy;

/** Capitalised words that open sentences without naming anything. */
/** A model noun (any case: German capitalises it; after a hyphen too, "Triage-Modell"), then a capitalised name: CamelCase, or followed by its version. */
const NAME_AFTER_MODEL_NOUN =
  /(?<![\p{L}])(?:[Mm]odel|[Mm]odell|[Mm]odèle|[Mm]odelo|[Mm]odello|[Aa]lgorithm|[Aa]lgorithmus|[Aa]lgoritme|[Aa]lgoritmo|[Aa]lgorithme|[Cc]hatbot|[Cc]lassifier|[Kk]lassifikator) (\p{Lu}[\p{Ll}\d]+(?:\p{Lu}[\p{L}\d]*)+|\p{Lu}[\p{L}\d]+(?= (?:v(?:ersion|ersie|ersão|ersión|ersione)?\.? ?\d|in der Version|\d)))/gu;
/**
 * A system noun that is no person: an assistant only as a chat, virtual or digital one ("a shop
 * assistant" is a person, "un asistente virtual" is not).
 */
const MACHINE_NOUN = String.raw`(?:chat|virtual|digital|automated|conversational|virtuel\p{L}*|virtual|virtuale|virtuele|virtuell\p{L}*|digitale?r?|chat-) ?(?:assistant|assistent\p{L}*|asistente|assistente)|(?:assistant|assistent\p{L}*|asistente|assistente) (?:virtuel\p{L}*|virtual|virtuale|digital\p{L}*|conversationnel)|${SYSTEM_NOUNS.split('|').filter((noun) => !/^as+ist/u.test(noun)).join('|')}`;
/** A system noun within the first words after a declaration's article ("a computer program", "un asistente virtual"). */
const SYSTEM_NOUN_AFTER = new RegExp(String.raw`^(?:[\p{L}-]+ ){0,2}?(?:${MACHINE_NOUN})(?![\p{L}])`, 'u');
/** "chat assistant, Scout", "assistente virtuale, Alba": a machine noun, a comma, then a name ending the phrase. */
const SYSTEM_NOUN_THEN_NAME = new RegExp(String.raw`(?<![\p{L}])(?:${MACHINE_NOUN}), (\p{Lu}[\p{L}\d]+)(?=$|[,.;:!?)])`, 'gu');
const GENERIC_NAME = /^(?:The|This|That|It|Our|We|You|Your|Der|Die|Das|Unser\p{L}*|Le|La|Les|Notre|El|Los|Las|Nuestr\p{L}*|Il|Lo|Gli|Nostr\p{L}*|De|Het|Onze|O|A|Os|As|Noss\p{L}*|AI|KI|IA)$/u;

/** Whether the sentence itself names AI: an AI term, or the page's own name for its AI system. */
export function mentionsAi(discourse: Discourse, s: Sentence): boolean {
  if (s.ai === undefined) {
    s.ai = hitsIn(s, AI_TERMS).length > 0 || discourse.systemNames.some((name) => containsWord(s.lower, name));
  }
  return s.ai;
}

/** A section is about AI when its heading, one of its own sentences, an enclosing section's heading, or its parent's own sentences (below the h1) are. */
export function isAiSection(discourse: Discourse, section: Section): boolean {
  if (section.ai === undefined) {
    section.ai =
      (section.heading !== null && mentionsAi(discourse, section.heading)) ||
      section.sentences.some((s) => mentionsAi(discourse, s) || refersByAlias(discourse, s)) ||
      (section.parent !== null && section.parent.heading !== null && isAiHeadingChain(discourse, section.parent)) ||
      // A section introducing the system, with its subsections under it ("About this tool: … a
      // machine-learning model …" › "What it was trained on").
      (section.parent !== null && section.parent.level > 1 && section.parent.sentences.some((s) => mentionsAi(discourse, s)));
  }
  return section.ai;
}

function isAiHeadingChain(discourse: Discourse, section: Section | null): boolean {
  for (let s = section; s !== null; s = s.parent) if (s.heading !== null && mentionsAi(discourse, s.heading)) return true;
  return false;
}

/**
 * A sentence is about AI when it names AI, when its section is about AI, or when the whole page
 * is (title or h1) and the sentence is in the page's main content rather than its navigation,
 * header or footer.
 */
export function isAiSentence(discourse: Discourse, s: Sentence): boolean {
  if (mentionsAi(discourse, s) || refersByAlias(discourse, s)) return true;
  if (s.section === null) return false;
  if (isAiSection(discourse, s.section)) return true;
  return (discourse.pageAboutAi || discourse.documentsSystem) && (s.section.landmark === 'main' || s.section.landmark === 'body');
}

/** The sentence holding a link's visible name (or the first of its block). */
export function linkSentence(d: Discourse, link: Link): Sentence | undefined {
  const block = d.corpus.page.textBlocks[link.blockIndex];
  if (block === undefined) return undefined;
  const at = link.nameFrom === 'content' ? Math.max(0, block.text.indexOf(link.text)) : 0;
  const offset = block.start + at;
  return d.sentences.find((s) => s.blockIndex === link.blockIndex && s.start <= offset && s.end >= offset) ?? d.sentences.find((s) => s.blockIndex === link.blockIndex);
}

export function containsWord(haystack: string, word: string): boolean {
  let at = haystack.indexOf(word);
  while (at >= 0) {
    const before = haystack[at - 1];
    const after = haystack[at + word.length];
    if ((before === undefined || !/[\p{L}\d]/u.test(before)) && (after === undefined || !/[\p{L}\d]/u.test(after))) return true;
    at = haystack.indexOf(word, at + 1);
  }
  return false;
}

/** What may stand between a list's comma and the item: two words ("…, or automated"), or an item and its conjunction ("…, AI assistants or"). */
const LIST_ITEM = /^ ?(?:(?:[\p{L}\d'’-]+ ){0,2}|(?:[\p{L}\d'’-]+ ){1,3}(?:or|and|nor|oder|und|ou|et|o|y|e|of|en|ni|né|nem) (?:(?:any|other|jegliche\p{L}*|sonstige\p{L}*|tout|toute|autre|cualquier|otro|otra|qualsiasi|altro|altra|enige|ander\p{L}*|qualquer|outro|outra) )?)$/u;

/** A subordinate clause ("if", "when", "so that", "because"), in the seven languages, or an inverted verb that says "if" in German and Dutch ("Bent u het niet eens …"): its comma ends it. */
const CONDITIONAL =
  /^\s*(?:(?:and|und|et|y|e|en|or|oder|ou|o|of)\s+)?(?:if|when|unless|so that|because|since|wenn|falls|sollten|damit|weil|sofern|si|lorsque|quand|afin que|pour que|parce que|puisque|cuando|en caso de que|para que|porque|ya que|se|qualora|quando|affinché|perché|poiché|als|indien|wanneer|zodat|omdat|aangezien|caso|quando|para que|porque|já que)\s|^\s*(?:bent|is|zijn|heeft|hebt|wilt|kunt|sind|ist|haben|hat|möchten|wollen|können|sollte)\s+(?:u|je|jij|sie|du|er|es|het|ihr)\s/iu;

/** The clause that ends at `at` (a comma) opens on "if": the sentence's text up to it, from its last clause break. */
function conditionalBefore(discourse: Discourse, s: Sentence, at: number): boolean {
  const clause = discourse.corpus.lower.slice(s.start, at).split(/[,;:]/u).at(-1) ?? '';
  return CONDITIONAL.test(clause);
}

/** Languages where "si" is not "whether". */
const SI_IS_REFLEXIVE = new Set(['it']);

/** Characters before a cue searched for a negation, within its clause. */
const NEGATION_REACH = 60;
const CLAUSE_BREAK = /[,:;–—(]|\b(?:but|however|aber|jedoch|sondern|mais|pero|sino|ma|però|bensì|maar|mas|porém)\b/giu;

/**
 * Whether the cue at `[start, end)` of the corpus is negated: a negation word in its clause, up
 * to NEGATION_REACH characters before it or inside it ("we do not use AI", "keine KI-generierten
 * Bilder", "sans intervention humaine"). A negation followed by "without" is a double negation
 * and affirms ("no decision is made without a human review"); "not only" is no negation.
 */
export function isNegated(discourse: Discourse, s: Sentence, start: number, end: number): boolean {
  const from = Math.max(s.start, start - NEGATION_REACH);
  let window = discourse.corpus.lower.slice(from, end);
  // Only the cue's own clause: cut at the last clause break before the cue.
  const cueOffset = start - from;
  let clauseStart = 0;
  CLAUSE_BREAK.lastIndex = 0;
  for (let m = CLAUSE_BREAK.exec(window); m !== null && m.index < cueOffset; m = CLAUSE_BREAK.exec(window)) {
    // A comma right before the cue continues a list, and the list's verb governs it: "We do not
    // use chatbots, AI assistants or automated decision-making".
    // Not after a conditional clause, which the comma closes: "Si no está de acuerdo con el
    // resultado, un gestor revisará su solicitud", "Wenn Sie nicht einverstanden sind, sieht sich …".
    if (m[0] === ',' && LIST_ITEM.test(window.slice(m.index + 1, cueOffset)) && !conditionalBefore(discourse, s, from + m.index)) continue;
    clauseStart = m.index + m[0].length;
  }
  window = window.slice(clauseStart);
  // "whether" opens a clause that a comma closes: "Ob Ihre Steuererklärung automatisch veranlagt
  // wird, entscheidet eine Software" asserts what follows the comma.
  const cue = cueOffset - clauseStart;
  // "si" asks only in Spanish and French; in Italian it is the reflexive ("Il sistema si basa su …").
  const asks = (hit: { start: number; end: number }) => window.slice(hit.start, hit.end) !== 'si' || !SI_IS_REFLEXIVE.has(discourse.lang);
  if (findAll(UNASSERTED, window, window).some((hit) => asks(hit) && !window.slice(hit.end, cue).includes(','))) return true;
  const negations = findAll(discourse.negation, window, window).length - findAll(NOT_A_NEGATION, window, window).length;
  const without = findAll(WITHOUT, window, window).length > 0;
  if (negations > 0 ? !without : without) return true;
  // German and Dutch put the negation of using something at the clause's end: "Einen Chatbot oder
  // eine KI … setzen wir bewusst nicht ein", "Een chatbot gebruiken wij niet".
  return (discourse.lang === 'de' || discourse.lang === 'nl') && USE_NOT_AT_END.test(clauseAfter(discourse, s, end));
}

/** The rest of the clause after `end`, up to its break or the sentence's end. */
function clauseAfter(discourse: Discourse, s: Sentence, end: number): string {
  const rest = discourse.corpus.lower.slice(end, Math.min(s.end, end + NEGATION_REACH * 2));
  const stop = rest.search(/[,:;–—(]/u);
  return stop < 0 ? rest : rest.slice(0, stop);
}
const USE_NOT_AT_END = /(?:^|\s)(?:setzen|setzt|nutzen|nutzt|verwenden|verwendet|benutzen|benutzt|gebruiken|gebruikt|zetten|zet) (?:\p{L}+ ){0,3}?(?:nicht|niet)(?: (?:ein|in))?\s*[.!]?\s*$/u;

/**
 * The hits of a lexeme inside a sentence, as corpus offsets. The lexeme runs once over the whole
 * page (memoised): for what most sentences are asked about, such as AI_TERMS.
 */
export function hitsIn(s: Sentence, lexeme: Lexeme): Hit[] {
  return s.hits.within(lexeme, s.start, s.end);
}

/** The same, matching this sentence only: for what only a few sentences are asked about. */
export function scanSentence(s: Sentence, lexeme: Lexeme): Hit[] {
  return findAll(lexeme, s.text, s.lower).map((h) => ({ start: s.start + h.start, end: s.start + h.end }));
}

/** A preposition after the noun that makes it another thing ("el sistema de reservas", "the model of the car"). */
const QUALIFIED = /^ (?:de|del|des|du|di|della|dello|of|van|für|for|do|dos|das)(?![\p{L}])/u;

const DET_BEFORE = new RegExp(String.raw`(?:(?:^|[^\p{L}])(?:${DETERMINER}) (?:[\p{L}-]+ )?|(?:^|[^\p{L}])(?:l|dell|dall|nell|sull|d)['’])$`, 'u');

/** Whether the sentence refers to the page's own system by one of its aliases (system-aliases.ts), with a determiner before it. */
export function refersByAlias(d: Discourse, s: Sentence): boolean {
  for (const alias of d.systemAliases) {
    for (let at = s.lower.indexOf(alias); at >= 0; at = s.lower.indexOf(alias, at + 1)) {
      const before = s.lower[at - 1];
      const after = s.lower[at + alias.length];
      if ((before !== undefined && /[\p{L}\d]/u.test(before)) || (after !== undefined && /[\p{L}\d]/u.test(after))) continue;
      if (QUALIFIED.test(s.lower.slice(at + alias.length, at + alias.length + 8))) continue;
      if (DET_BEFORE.test(s.lower.slice(Math.max(0, at - 40), at))) return true;
    }
  }
  return false;
}
