// ai-governance.human-oversight-contact (Manage): an oversight, review, appeal or escalation
// statement is paired with a contact mechanism.
//
// Like every control after the disclosure, it documents an AI system the site itself deploys or
// offers: it passes only on a page where `disclosureOf` finds one. A page that only reports on
// AI, or whose AI wording is hidden or negated, fails.
//
// An oversight statement is a sentence of the page's content (not its navigation, header or
// footer), about the AI system or what it produced (the sentence or its section names AI or the
// system's own nouns, or an output: a decision, result, answer, score, alert …; or the reader
// asks for it), not negated, that says a person looks at
// the case or that the reader can get one to (cues in human-oversight-contact-cues.ts):
//
// - human oversight by name: "human review", "menschliche Prüfung", "contrôle humain";
// - a review cue with a person close to it: "a claims handler checks the AI assessment",
//   "reviewed by a recruiter", "ein Mitarbeiter prüft jeden Vorschlag", "un agent vérifie";
// - a strong review cue the reader asks for: "you can request a review", "eine erneute Prüfung
//   verlangen", "potete chiederne la revisione", "die laat de samenvatting opnieuw beoordelen";
// - a hand-over to a person: "ask for a human", "puede pedir hablar con un empleado";
// - an appeal: "appeal", "contest the decision", "bezwaar maken", "Widerspruch einlegen".
//
// A review of the policy itself ("reviews this policy every six months") is not oversight.
//
// A contact mechanism is for that statement when it sits in the statement's section: under the
// same heading of level 2 or deeper (the outermost one above the statement), subsections
// included; for a statement under the h1 or no heading, in its own section only. A link named
// for review or appeal ("human review request form", mailto:ai-review@…) is tied to the
// statement by its name, anywhere in the same landmark (the page's content). It
// is a mailto: or tel: link, a link named or pointing to a contact, review, appeal or complaint
// route, a visible contact form, an email address, a phone number after a call verb, or a
// postal address. Failing all that, a mailbox, phone link or written contact elsewhere in the
// page's content serves the statement (the labellers of every multilingual set passed a contact
// a few sections down), unless it is offered to the press, sales, partners or suppliers; a
// generic "Contact" link or a form there does not. A button with no link is not a contact
// (nothing to follow in the static page), nor is a contact in the footer or navigation only.
import type { Element } from 'domhandler';
import type { Control, Outcome } from '../control.ts';
import { truncate, type Link, type Page } from '../page.ts';
import { ownSystemOf } from './own-system.ts';
import { containsWord, discourseOf, hitsIn, isAiSentence, isNegated, linkSentence, mentionsAi, refersByAlias, type Discourse, type Section, type Sentence } from './discourse.ts';
import { EVIDENCE_MAX, locationAt, lookedFor, outcome, quotedText, scriptRendered, type Corpus, type Hit } from './evidence.ts';
import {
  APPEAL,
  BY_SOMEONE,
  CALL_NUMBER,
  CONTACT_HREF,
  CONTACT_NAME,
  DOCUMENT_OBJECT,
  ASK_FOR_PERSON,
  HANDOVER_FINAL,
  HANDOVER_TO,
  HUMAN_OVERSIGHT,
  OUTPUT,
  PERSON_COMPOUND,
  PERSON_WORDS,
  POSTAL,
  POSTCODE,
  REQUEST,
  REQUEST_FORM,
  RATINGS,
  REVIEW,
  REVIEW_HEADING,
  REVIEW_ROUTE,
  NOT_FOR_REVIEW,
  SALES,
  STRONG_REVIEW,
  TAKEOVER,
  WRITE_TO,
} from './human-oversight-contact-cues.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { AI_TERMS, findAll, type Lexeme } from './lexicon.ts';

/** How far (characters) a person or a request may stand from the review cue it goes with. */
const PERSON_REACH = 60;
const REQUEST_REACH = 100;
/** How far after a review cue its agent ("by a recruiter") may start. */
const AGENT_REACH = 30;
/** How far after a review cue its object may start for "reviews this policy" to be recognised. */
const OBJECT_REACH = 12;
/** Oversight statements examined per page. */
const MAX_STATEMENTS = 40;

const EXAMPLES = [
  'request a human review',
  'an underwriter checks each flagged case',
  'ask to speak to a person',
  'appeal the decision',
  'menschliche Überprüfung',
  'demander un réexamen',
  'revisión humana',
];

/** An oversight statement: its sentence and the cue that decided it. */
export interface Statement {
  sentence: Sentence;
  hit: Hit;
}

/** A contact mechanism and where it is. */
export interface Contact {
  kind: 'email link' | 'phone link' | 'contact link' | 'contact form' | 'email address' | 'phone number' | 'postal address';
  label: string;
  section: Section | null;
  /** Named for review or appeal (link name or address), so tied to an oversight statement wherever it is. */
  forReview?: boolean;
  /** Offered to the press, sales, partners or suppliers (its name, address, sentence or heading says so): no route to a review. */
  forOthers?: boolean;
}

interface Oversight {
  statements: Statement[];
  /** Contacts of links and forms, by the section they sit in. */
  contacts: Contact[];
}

const memo = new WeakMap<Discourse, Oversight>();

/** The page's oversight statements and link/form contacts, built once per discourse. */
export function oversightOf(d: Discourse): Oversight {
  let found = memo.get(d);
  if (found === undefined) {
    found = { statements: findStatements(d), contacts: linkAndFormContacts(d) };
    memo.set(d, found);
  }
  return found;
}

function inContent(s: Sentence): boolean {
  const landmark = s.section?.landmark;
  return landmark === 'main' || landmark === 'body' || landmark === 'aside';
}

function findStatements(d: Discourse): Statement[] {
  const out: Statement[] = [];
  const aboutSystem = new Map<Section, boolean>();
  for (const s of d.sentences) {
    if (out.length >= MAX_STATEMENTS) break;
    if (s.section === null || !inContent(s)) continue;
    const hit = statementCue(d, s);
    if (hit === undefined) continue;
    let about = aboutSystem.get(s.section);
    if (about === undefined) {
      about = sectionAboutSystem(d, s.section);
      aboutSystem.set(s.section, about);
    }
    if (about || isAiSentence(d, s) || hitsIn(s, OUTPUT).length > 0 || readerAsks(s)) out.push({ sentence: s, hit });
  }
  return out;
}

/**
 * A statement the reader acts on (a request, an appeal, human review by name) in the sentence
 * itself: on a page that discloses its own system, the case the reader asks about is the one
 * that system handled, whatever the section names ("Auch eine Absage können Sie durch eine Person
 * überprüfen lassen"; "potete chiedere che un istruttore lo riveda"). A review with no request in it
 * ("Bekijk de vacatures of bel onze recruiter"), or with one only in its heading ("¿Quieres cambiar tu
 * billete?" over "Una persona … puede revisar tu bono"), still needs a section about the system.
 */
function readerAsks(s: Sentence): boolean {
  return hitsIn(s, REQUEST).length > 0 || hitsIn(s, APPEAL).length > 0 || hitsIn(s, HUMAN_OVERSIGHT).length > 0;
}

/** The section (heading or own sentences) names AI or something an AI system produces. */
function sectionAboutSystem(d: Discourse, section: Section): boolean {
  const sentences = section.heading === null ? section.sentences : [section.heading, ...section.sentences];
  return sentences.some((s) => mentionsAi(d, s) || refersByAlias(d, s) || hitsIn(s, OUTPUT).length > 0);
}

/** The cue that makes the sentence an oversight statement, affirmed, or undefined. */
function statementCue(d: Discourse, s: Sentence): Hit | undefined {
  const affirmed = (hit: Hit) => !isNegated(d, s, hit.start, hit.end);
  for (const lexeme of [HUMAN_OVERSIGHT, ASK_FOR_PERSON, APPEAL]) {
    const hit = hitsIn(s, lexeme).find(affirmed);
    if (hit !== undefined) return hit;
  }
  const persons = personsIn(d, s);
  if (persons.length > 0) {
    const handover = handoverIn(d, s, persons, affirmed);
    if (handover !== undefined) return handover;
  }
  // Every strong review cue is a review cue too ("un nouvel examen", "una segunda lectura", "Neubeurteilung").
  const strong = hitsIn(s, STRONG_REVIEW);
  const plain = hitsIn(s, REVIEW);
  const reviews = [...plain, ...strong.filter((x) => !plain.some((r) => r.start <= x.start && r.end >= x.end))];
  if (reviews.length === 0) return undefined;
  const requests = hitsIn(s, REQUEST);
  const ratings = hitsIn(s, RATINGS);
  for (const review of reviews) {
    if (!affirmed(review) || ofDocument(s, review) || ratings.some((r) => r.start <= review.start && r.end >= review.end)) continue;
    // The person may stand inside a separable verb's span too ("kijkt een medewerker … opnieuw na").
    const near = (other: Hit, reach: number) => other.start < review.end + reach && other.end > review.start - reach && (other.end <= review.start || other.start >= review.end || (other.start > review.start && other.end < review.end));
    // The person negated is no reviewer either: "Er beoordeelt geen collega uw aanvraag opnieuw".
    if (persons.some((p) => near(p, PERSON_REACH) && affirmed(p)) || byPerson(s, review)) return review;
    const isStrong = strong.some((x) => x.start <= review.start && x.end >= review.end);
    if (isStrong && requests.some((r) => near(r, REQUEST_REACH))) return review;
  }
  return undefined;
}

/** Person nouns in a sentence, whole words and heads of compounds, by position. */
function personsIn(d: Discourse, s: Sentence): Hit[] {
  const hits = hitsIn(s, PERSON_WORDS);
  // Agent nouns after an article: the open class of roles ("une médiatrice", "un istruttore", "un
  // perito tasador", "uma nutricionista") the word lists can never finish.
  AGENT_NOUN.lastIndex = 0;
  for (let m = AGENT_NOUN.exec(s.lower); m !== null && hits.length < MAX_PERSONS; m = AGENT_NOUN.exec(s.lower)) {
    if (!MACHINE_AGENT.test(m[1]!)) hits.push({ start: s.start + m.index + m[0].length - m[1]!.length, end: s.start + m.index + m[0].length });
  }
  // German feminine agent nouns name people ("Buchhalterinnen", "Entwicklerin", "Juristin"); the masculine "-er" may be a machine ("Filter").
  GERMAN_FEMININE_AGENT.lastIndex = 0;
  if (d.lang === 'de') {
    for (let m = GERMAN_FEMININE_AGENT.exec(s.lower); m !== null && hits.length < MAX_PERSONS; m = GERMAN_FEMININE_AGENT.exec(s.lower)) hits.push({ start: s.start + m.index, end: s.start + m.index + m[0].length });
  }
  PERSON_COMPOUND.lastIndex = 0;
  for (let m = PERSON_COMPOUND.exec(s.lower); m !== null && hits.length < MAX_PERSONS; m = PERSON_COMPOUND.exec(s.lower)) {
    hits.push({ start: s.start + m.index, end: s.start + m.index + m[0].length });
  }
  return hits.filter((h) => !VIRTUAL.test(s.lower.slice(h.end - s.start, h.end - s.start + 16))).sort((a, b) => a.start - b.start);
}
const MAX_PERSONS = 100;

const GERMAN_FEMININE_AGENT = /(?<![\p{L}])\p{L}{3,}(?:erin|erinnen|istin|istinnen|eurin|eurinnen)(?![\p{L}])/gu;

/** A role noun after an article or "by": French, Spanish, Italian and Portuguese agent suffixes. */
const AGENT_NOUN =
  /(?<![\p{L}])(?:un|une|una|uno|um|uma|le|la|el|il|lo|o|a|l['’]|del|della|dal|dalla|par|por|pelo|pela|da|nostro|nostra|notre|nuestro|nuestra|nosso|nossa|votre|vostro|vostra|su|sua|seu) (\p{L}{3,}(?:eur|euse|rice|ienne|ien|iste|ier|ière|ador|adora|edor|edora|idor|idora|ore|ora|ero|era|ista|eiro|eira|ante|ente|ólogo|óloga|ologo|ologa))(?![\p{L}])/gu;
/** Agent nouns that name a machine, a place or a thing, not a person. */
const MACHINE_AGENT =
  /^(?:moteur|ordinateur|serveur|capteur|lecteur|détecteur|générateur|calculateur|correcteur|traducteur|processeur|classificateur|navigateur|compteur|ascenseur|secteur|intérieur|extérieur|supérieur|inférieur|antérieur|postérieur|meilleur|valeur|couleur|chaleur|hauteur|longueur|largeur|honneur|bonheur|malheur|labeur|faveur|vigueur|rigueur|motor|servidor|procesador|processador|generador|gerador|clasificador|classificador|detector|detetor|traductor|tradutor|computador|ordenador|navegador|contador|indicador|marcador|buscador|motore|sensore|generatore|classificatore|rilevatore|traduttore|processore|calcolatore|colore|valore|errore|settore|favore|amore|cuore|fiore|carrera|frontera|primavera|madera|bandera|manera|primera|primero|tercera|tercero|entera|entero|dinero|cartera|caldera|rivista|lista|pista|revista|entrevista|conquista|cliente|utente|paciente|paziente|residente|docente|estudiante|studente|agente|asistente|assistente|ambiente|corriente|corrente|presidente|precedente|siguiente|seguente|continente|componente|expediente|accidente|incidente|fuente|puente|gente|mente|frente|diente|número|numero)$/u;

/** A qualifier that makes the "person" a machine: "assistente virtual", "agent virtuel", "digitaler Assistent" is no person. */
const VIRTUAL = /^ (?:virtu\p{L}*|digital\p{L}*|automátic\p{L}*|automatic\p{L}*|(?:de |di |d['’])?(?:ia|ai|ki))(?![\p{L}])/u;

/** How far a hand-over verb and its person may stand apart. */
const HANDOVER_REACH = 40;

/** A hand-over to a person: the verb (and preposition), then the person; or, verb-final, the person then the verb. Not to sales. */
function handoverIn(d: Discourse, s: Sentence, persons: readonly Hit[], affirmed: (hit: Hit) => boolean): Hit | undefined {
  for (const verb of hitsIn(s, HANDOVER_TO)) {
    const person = persons.find((p) => p.start >= verb.end && p.start - verb.end <= HANDOVER_REACH);
    const hit = person === undefined ? undefined : { start: verb.start, end: person.end };
    if (hit !== undefined && affirmed(verb) && !toSales(d, hit)) return hit;
  }
  // A person taking over from the system: the person, then the verb ("een collega … neemt het gesprek over").
  for (const verb of hitsIn(s, TAKEOVER)) {
    const person = persons.findLast((p) => p.end <= verb.start && verb.start - p.end <= HANDOVER_REACH);
    const hit = person === undefined ? undefined : { start: person.start, end: verb.end };
    if (hit !== undefined && affirmed(verb) && !toSales(d, hit)) return hit;
  }
  for (const verb of hitsIn(s, HANDOVER_FINAL)) {
    const person = persons.findLast((p) => p.end <= verb.start && verb.start - p.end <= HANDOVER_REACH);
    const hit = person === undefined ? undefined : { start: person.start, end: verb.end };
    if (hit !== undefined && affirmed(verb) && !toSales(d, hit)) return hit;
  }
  return undefined;
}

/** How far past a hand-over its person may be qualified ("equipo comercial"). */
const SALES_REACH = 20;

/** "talk to our sales team": a hand-over to sales is a sales contact, not a route to a review. */
function toSales(d: Discourse, hit: Hit): boolean {
  const text = d.corpus.lower.slice(hit.start, hit.end + SALES_REACH);
  return findAll(SALES, text, text).length > 0;
}

/** "reviewed by a recruiter", "verificata da un termografo": an agent right after the cue that is not a machine. */
function byPerson(s: Sentence, review: Hit): boolean {
  const from = review.end - s.start;
  const after = s.lower.slice(from, from + AGENT_REACH + 60);
  const agent = findAll(BY_SOMEONE, after, after)[0];
  return agent !== undefined && agent.start <= AGENT_REACH;
}

/** "reviews this policy": the object of the review is a document, not a case. */
function ofDocument(s: Sentence, review: Hit): boolean {
  const from = review.end - s.start;
  const after = s.lower.slice(from, from + OBJECT_REACH + 40);
  const object = findAll(DOCUMENT_OBJECT, after, after)[0];
  return object !== undefined && object.start <= OBJECT_REACH;
}

/** The section a reader takes as the statement's topic: the outermost enclosing section under a heading of level 2 or deeper. */
function topicOf(section: Section): Section {
  let topic = section;
  for (let s: Section | null = section.parent; s !== null && s.level >= 2; s = s.parent) topic = s;
  return topic;
}

function within(section: Section, ancestor: Section): boolean {
  for (let s: Section | null = section; s !== null; s = s.parent) if (s === ancestor) return true;
  return false;
}

/**
 * Whether a contact in section `contact` is for a statement in section `statement`: it lies
 * under the statement's topic heading (level 2 or deeper), subsections included. A statement
 * under the page's h1, or under no heading, pairs only with its own section's sentences, not with
 * the whole page beneath it.
 */
function pairs(statement: Section, contact: Section | null): boolean {
  if (contact === null) return false;
  const topic = topicOf(statement);
  return topic.level >= 2 ? within(contact, topic) : contact === statement;
}

/** Links (mailto, tel, contact or review routes) and contact forms, with their sections. */
function linkAndFormContacts(d: Discourse): Contact[] {
  const sectionOfBlock = new Map<number, Section>();
  for (const s of d.sentences) if (s.section !== null && s.blockIndex >= 0 && !sectionOfBlock.has(s.blockIndex)) sectionOfBlock.set(s.blockIndex, s.section);
  const near = (block: number): Section | null => {
    for (let i = block; i >= 0 && block - i < 50; i--) {
      const found = sectionOfBlock.get(i);
      if (found !== undefined) return found;
    }
    return null;
  };
  const out: Contact[] = [];
  for (const link of d.corpus.links) {
    const words = `${link.text} ${link.href}`.toLowerCase();
    const forReview = REVIEW_ROUTE.test(words) && (link.href.toLowerCase().startsWith('mailto:') || REQUEST_FORM.test(words));
    const kind = forReview ? (contactLinkKind(link) ?? 'contact link') : contactLinkKind(link);
    if (kind === null) continue;
    // A link that opens a tool ("Open the Draft Feedback Assistant") or names the system reaches the system, not a person.
    if (kind === 'contact link' && !forReview && (OPEN_TOOL.test(link.text.trim()) || namesSystem(d, link.text))) continue;
    const section = near(link.blockIndex);
    out.push({ kind, label: link.text || link.href, section, forReview, forOthers: offeredToOthers(`${words} ${linkSentence(d, link)?.lower ?? ''}`, section) });
  }
  for (const form of d.corpus.page.forms) {
    if (!isContactForm(form)) continue;
    const section = near(form.blockStart);
    out.push({ kind: 'contact form', label: form.action ?? 'form', section, forOthers: offeredToOthers((form.action ?? '').toLowerCase(), section) });
  }
  return out;
}

const OPEN_TOOL = /^(?:open|launch|start|try|use|go to|öffnen|starten|ausprobieren|ouvrir|lancer|essayer|abrir|iniciar|probar|aprire|avviare|prova|openen|probeer|experimente|acessar|aceder)(?![\p{L}])/iu;

function namesSystem(d: Discourse, text: string): boolean {
  const lower = text.toLowerCase();
  return findAll(AI_TERMS, text, lower).length > 0 || [...d.systemNames, ...d.systemAliases].some((name) => containsWord(lower, name));
}

function contactLinkKind(link: Link): Contact['kind'] | null {
  const href = link.href.toLowerCase();
  if (href.startsWith('mailto:')) return 'email link';
  if (href.startsWith('tel:')) return 'phone link';
  const named = findAll(CONTACT_NAME, link.text, link.text.toLowerCase()).length > 0;
  if (href.startsWith('javascript:')) return named ? 'contact link' : null;
  const path = link.url === null ? href : `${link.url.pathname}${link.url.search}${link.url.hash}`.toLowerCase();
  return named || CONTACT_HREF.test(path) ? 'contact link' : null;
}

function isContactForm(form: Page['forms'][number]): boolean {
  if (!form.visible) return false;
  const attribs = form.element.attribs;
  const named = [form.action ?? '', attribs.id ?? '', attribs.name ?? '', attribs.class ?? '', attribs['aria-label'] ?? ''].join(' ').toLowerCase();
  if (CONTACT_HREF.test(named)) return true;
  const freeText = form.fields.some((f) => f.tag === 'textarea');
  const reachable = form.fields.some((f) => f.type === 'email' || f.type === 'tel' || /mail|phone|tel/i.test(f.name));
  return freeText && reachable;
}

const textContacts = new WeakMap<Sentence, Contact | null>();

function textContactOf(d: Discourse, s: Sentence): Contact | undefined {
  let found = textContacts.get(s);
  if (found === undefined) {
    found = textContact(d, s) ?? null;
    textContacts.set(s, found);
  }
  return found ?? undefined;
}

/**
 * An email address, a phone number after a call verb, or a postal address in a sentence: a P.O.
 * box, a postcode after a write verb in the sentence or in the sentence before it that ends on a
 * colon ("Bitte richten Sie Ihren Widerspruch schriftlich an:" › the address), or a postcode in an
 * `<address>` element.
 */
function textContact(d: Discourse, s: Sentence): Contact | undefined {
  const contact = (kind: Contact['kind'], label: string): Contact => ({ kind, label, section: s.section, forOthers: offeredToOthers(s.lower, s.section) });
  const email = emailIn(s.text);
  if (email !== undefined) return contact('email address', email);
  const phone = firstIn(s, CALL_NUMBER);
  if (phone !== undefined) return contact('phone number', s.text.slice(phone.start, phone.end));
  const box = firstIn(s, POSTAL);
  if (box !== undefined) return contact('postal address', s.text.slice(box.start, box.end));
  const code = POSTCODE.exec(s.text);
  if (code !== null && (firstIn(s, WRITE_TO) !== undefined || introducedByWriteTo(s) || inAddressElement(d, s))) return contact('postal address', code[0]);
  return undefined;
}

/** The sentence before, in the same section, asks the reader to write and ends on a colon. */
function introducedByWriteTo(s: Sentence): boolean {
  const sentences = s.section?.sentences ?? [];
  const at = sentences.indexOf(s);
  const before = at > 0 ? sentences[at - 1]! : undefined;
  return before !== undefined && before.text.trimEnd().endsWith(':') && firstIn(before, WRITE_TO) !== undefined;
}

/** Ancestors examined for an `<address>` element. */
const ADDRESS_DEPTH = 6;

function inAddressElement(d: Discourse, s: Sentence): boolean {
  for (let el = d.corpus.page.textBlocks[s.blockIndex]?.element ?? null, steps = 0; el !== null && steps < ADDRESS_DEPTH; steps++, el = el.parent?.type === 'tag' ? (el.parent as Element) : null) {
    if (el.name === 'address') return true;
  }
  return false;
}

function firstIn(s: Sentence, lexeme: Lexeme): { start: number; end: number } | undefined {
  return findAll(lexeme, s.text, s.lower)[0];
}

/** An email address around an '@': the local part read backwards, the domain forwards, both bounded. */
const EMAIL_LOCAL_CHAR = /[\p{L}\p{N}._%+-]/u;
const EMAIL_DOMAIN = /^[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63})*\.\p{L}{2,24}/u;
const MAX_AT_SIGNS = 10;

function emailIn(text: string): string | undefined {
  let at = text.indexOf('@');
  for (let seen = 0; at >= 0 && seen < MAX_AT_SIGNS; seen++, at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 64 && EMAIL_LOCAL_CHAR.test(text[start - 1]!)) start--;
    const domain = EMAIL_DOMAIN.exec(text.slice(at + 1, at + 260));
    if (start < at && domain !== null) return `${text.slice(start, at)}@${domain[0]}`;
  }
  return undefined;
}

/** Press, sales, partner or supplier words in a contact's own words or its section's heading ("press@…", "Pressestelle", "notre service commercial"). */
function offeredToOthers(words: string, section: Section | null): boolean {
  const heading = section?.heading?.lower ?? '';
  return [words, heading].some((text) => findAll(NOT_FOR_REVIEW, text, text).length > 0 || findAll(SALES, text, text).length > 0);
}

/** The contact for a statement: a link or form in its section, or a contact written in one of the section's sentences. */
function contactFor(d: Discourse, found: Oversight, statement: Statement): Contact | undefined {
  const section = statement.sentence.section!;
  // A contact under a heading that names the review or appeal ("Asking for a review", "Erneute
  // Prüfung beantragen", "Contester une décision") is for it, a few sections down or up, in the
  // same landmark: the heading ties it to the oversight statement as a link's name would.
  // A mailbox, phone number or postal address elsewhere in the page's content serves what the page
  // is about, the review included, unless it is offered to someone else (the press, sales,
  // partners, suppliers). A generic "Contact" link or a form there (an application form) does not:
  // the labellers did not count them.
  const inContent = (other: Section | null) => other !== null && other.landmark === section.landmark && (other.landmark === 'main' || other.landmark === 'body');
  const underReviewHeading = (other: Section | null) => other !== null && other.landmark === section.landmark && (namesReview(other) || contactSection(d, other));
  const link =
    found.contacts.find((c) => pairs(section, c.section)) ??
    found.contacts.find((c) => c.forReview && c.section?.landmark === section.landmark) ??
    found.contacts.find((c) => underReviewHeading(c.section)) ??
    found.contacts.find((c) => (c.kind === 'email link' || c.kind === 'phone link') && !c.forOthers && inContent(c.section));
  if (link !== undefined) return link;
  const own = textContactOf(d, statement.sentence);
  if (own !== undefined) return own;
  for (const other of d.sections) {
    const paired = pairs(section, other) || underReviewHeading(other);
    if (!paired && !inContent(other)) continue;
    for (const s of other.sentences) {
      if (s === statement.sentence) continue;
      const contact = textContactOf(d, s);
      if (contact !== undefined && (paired || !contact.forOthers)) return contact;
    }
  }
  return undefined;
}

const contactSections = new WeakMap<Section, boolean>();

/**
 * A section of the page's content headed "Contact" ("Contact us", "Kontakt", "Nous contacter",
 * "Contacto", "Contatti", "Contato"), not the footer's: it serves what the page is about, the
 * review included, unless it is for the press, sales, partners or suppliers.
 */
function contactSection(d: Discourse, section: Section): boolean {
  let found = contactSections.get(section);
  if (found === undefined) {
    found = false;
    if (section.landmark === 'main' || section.landmark === 'body') {
      for (let s: Section | null = section; s !== null && s.level >= 2; s = s.parent) {
        if (s.heading === null || !CONTACT_HEADING.test(s.heading.text.trim())) continue;
        found = ![s.heading, ...s.sentences].some((x) => findAll(NOT_FOR_REVIEW, x.text, x.lower).length > 0 || findAll(SALES, x.text, x.lower).length > 0);
        break;
      }
    }
    contactSections.set(section, found);
  }
  return found;
}

/**
 * A heading that is "Contact" in one of the languages, or opens on it ("Contacting your child's
 * teacher", "Kontakt zur Fachabteilung"), or asks the reader's questions or offers more
 * information ("Questions?", "Meer informatie", "Per approfondire", "¿Dudas?"): sections where a
 * page puts the contact details for whatever it is about, the review included (issue 21: the
 * held-out half put a review's phone and mailbox there on three pages in three languages).
 */
const CONTACT_HEADING = new RegExp(
  '^(?:' +
    [
      String.raw`contact(?:s|ing)?(?: us)?|get in touch|kontakt(?:e|ieren)?|ihr kontakt|so erreichen sie uns|nous contacter|contactez-nous|contacto|contáctanos|contacte con nosotros|contatti|contattaci|contact opnemen|contactgegevens|contato|contactos|fale conosco`,
      String.raw`(?:any )?questions|(?:do you have|got) (?:any )?questions|need help|more information|further information|fragen|haben sie fragen|noch fragen|weitere informationen|mehr informationen`,
      String.raw`des questions|vous avez des questions|besoin d[’']aide|plus d[’']informations|pour en savoir plus|¿?(?:dudas|preguntas|tienes dudas|tienes preguntas|necesitas ayuda|más información)|domande|hai domande|per approfondire|per informazioni|maggiori informazioni`,
      String.raw`vragen|nog vragen|meer informatie|meer weten|dúvidas|perguntas|tem dúvidas|precisa de ajuda|mais informações|saiba mais`,
      // A customer-service desk: "Central de Atendimento", "Kundenservice", "Service client".
      String.raw`customer (?:service|support|care)|help ?desk|kundenservice|kundendienst|service client(?:s|èle)?|atención al cliente|servicio de atención al cliente|assistenza clienti|servizio clienti|klantenservice|central de atendimento|atendimento(?: ao cliente)?`,
    ].join('|') +
    String.raw`)(?:[\s.:!?]|$)`,
  'iu',
);

const reviewSections = new WeakMap<Section, boolean>();

/** The section, or the topic heading above it, names a review or appeal the reader asks for. */
function namesReview(section: Section): boolean {
  let found = reviewSections.get(section);
  if (found === undefined) {
    found = false;
    for (let s: Section | null = section; s !== null && s.level >= 2; s = s.parent) {
      if (s.heading !== null && findAll(REVIEW_HEADING, s.heading.text, s.heading.lower).length > 0) {
        found = true;
        break;
      }
    }
    reviewSections.set(section, found);
  }
  return found;
}

const WHAT = 'human oversight, review or appeal statement';

/** The outcomes of this control. */
export const outcomes = {
  /** A statement with a contact mechanism in its section. */
  paired: (corpus: Corpus, statement: Hit, contact: Contact): Outcome =>
    withStatement(corpus, 'pass', statement, ` + ${contact.kind} "${truncate(contact.label, 40)}" in its section`),
  /** A statement, and no contact mechanism in its section (maybe one elsewhere, not tied to it). */
  noContact: (corpus: Corpus, statement: Hit, elsewhere: Contact | undefined): Outcome =>
    withStatement(
      corpus,
      'fail',
      statement,
      elsewhere === undefined
        ? ' but no contact mechanism (mailto:, tel:, review or contact link, form, email address, phone number, postal address)'
        : ` but no contact mechanism in its section (the ${elsewhere.kind} "${truncate(elsewhere.label, 30)}" elsewhere is not tied to it)`,
    ),
  /** The page discloses an AI system but says nothing about a person reviewing it. */
  noStatement: (contact: Contact | undefined): Outcome =>
    lookedFor(contact === undefined ? `No ${WHAT} found for the disclosed AI system, and no contact mechanism` : `A ${contact.kind} exists but no oversight statement for the disclosed AI system`, EXAMPLES),
  /** No AI system of the site's own: nothing for a person to oversee. */
  notDisclosed: (): Outcome => lookedFor('The page discloses no AI system of its own and documents none, so no oversight statement counts', EXAMPLES),
  /** No disclosure, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
};

/** `Oversight statement in <where>: "<quote>"<tail>`, located at the statement. */
function withStatement(corpus: Corpus, status: Outcome['status'], statement: Hit, tail: string): Outcome {
  return outcome(status, `${quotedText(corpus, 'Oversight statement', statement, EVIDENCE_MAX - tail.length)}${tail}`, locationAt(corpus, statement));
}

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.human-oversight-contact',
  branch: 'ai-governance',
  framework: 'Manage',
  requirement: 'An oversight, review, appeal or escalation statement is paired with a contact mechanism.',
  // Warning: a contestation route is owed where AI decides about people (GDPR art. 22, EU AI Act
  // art. 14/86); static HTML cannot tell whether this page's system makes such decisions.
  severity: 'warning',
  evaluate(page) {
    const d = discourseOf(page);
    if (ownSystemOf(d) === undefined) return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notDisclosed();
    const found = oversightOf(d);
    for (const statement of found.statements) {
      const contact = contactFor(d, found, statement);
      if (contact !== undefined) return outcomes.paired(d.corpus, statement.hit, contact);
    }
    const first = found.statements[0];
    if (first !== undefined) return outcomes.noContact(d.corpus, first.hit, found.contacts[0]);
    return outcomes.noStatement(found.contacts[0]);
  },
};
