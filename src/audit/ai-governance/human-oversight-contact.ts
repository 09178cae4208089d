// ai-governance.human-oversight-contact (Manage): an oversight, review, appeal or escalation
// statement is paired with a contact mechanism.
//
// A statement is human oversight on its own ("human review", "reviewed by our editors",
// "menschliche Überprüfung", "supervision humaine", "revisión humana") or, for generic words
// (appeal, contest a decision, escalate, complaint procedure), only near AI vocabulary, so
// "the company will appeal the decision" in a news story is no oversight statement. "Reviews"
// of products never count.
//
// A contact mechanism is a visible mailto:/tel: link, a visible link or button named or
// pointing to contact/support/feedback/appeal, a visible contact form (contact-like action,
// id or name, or a free-text field plus an email/phone field), or an email address in text.
//
// Paired means within PAIRING_WINDOW_BLOCKS text blocks of the statement. A contact mechanism
// elsewhere on the page only is inconclusive: both signals exist, but static HTML cannot tell
// whether that contact is the route for oversight requests.
import type { Control, Outcome } from '../control.ts';
import { truncate, type Form, type Link, type Page } from '../page.ts';
import { EVIDENCE_MAX, corpusOf, locationAt, lookedFor, notFound, outcome, placeOf, quotedText, scriptRendered, wordRegex, type Corpus, type Hit } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, H, findPhrase, vocabulary } from './vocabulary.ts';

/** How many text blocks before or after an oversight statement a contact mechanism may be. */
export const PAIRING_WINDOW_BLOCKS = 3;
/** Oversight statements examined per page. */
const MAX_STATEMENTS = 20;

export const OVERSIGHT = vocabulary({
  lower: [
    // English
    String.raw`human (?:review|reviewers?|oversight|intervention|in the loop|decision${H}makers?|moderators?|check|verification|supervision)|human${H}in${H}the${H}loop`,
    String.raw`(?:reviewed|checked|verified|overseen|supervised|approved|monitored|edited) by (?:a |an |our )?(?:humans?|persons?|people|real person|staff|our (?:team|staff|editors|editorial team|moderators)|editors|an editor|a qualified \p{L}+|human editors)`,
    String.raw`(?:request|ask for|obtain|get) (?:a |an )?(?:human|manual|personal) (?:review|reassessment|intervention|decision|assessment)`,
    String.raw`(?:request|ask for) (?:a )?review of (?:the |this |your |an? )?(?:automated )?decision`,
    String.raw`right to (?:obtain human intervention|human intervention|human review|contest|appeal)`,
    String.raw`(?:speak|talk|chat) (?:to|with) (?:a |an |one of our )?(?:human|real person|live agent|human agent|member of (?:our )?staff)`,
    // German
    String.raw`menschliche[nr]? (?:überprüfung|aufsicht|kontrolle|prüfung|eingreifen|intervention|ansprechpartner\p{L}*)`,
    String.raw`(?:überprüfung|prüfung|kontrolle) durch (?:einen |eine |unsere |unser )?(?:menschen|mitarbeiter\p{L}*|person|redaktion)`,
    String.raw`(?:von|durch) (?:einem |unseren |unserer |der )?(?:menschen|mitarbeiter\p{L}*|redaktion) (?:überprüft|geprüft|kontrolliert)`,
    // French
    String.raw`(?:contrôle|supervision|surveillance|intervention|examen|vérification|relecture|validation) humaine?`,
    String.raw`(?:revu|vérifié|relu|validé|contrôlé|supervisé)(?:e|s|es)? par (?:un |une |des |nos |notre )?(?:humains?|personnes?|équipes?|rédacteurs?|rédaction|journalistes?|experts?|collaborateurs?)`,
    // Spanish
    String.raw`(?:supervisión|revisión|intervención|control|verificación) humana|derecho a (?:la )?intervención humana`,
    String.raw`(?:revisad|supervisad|verificad|validad)[oa]s? por (?:un |una |nuestro |nuestros )?(?:personas?|humanos?|equipo|editores|periodistas)`,
  ],
  contextual: [
    String.raw`(?:appeal|contest|challenge|dispute|object to) (?:the |this |that |a |an |any |our )?(?:automated )?(?:decisions?|outcomes?|results?|determinations?|assessments?)`,
    String.raw`escalat(?:e|ed|es|ion) (?:to|path|process|procedure)|(?:appeals?|complaints?|redress) (?:process|procedure|mechanism|form)`,
    String.raw`(?:widerspruch|einspruch|beschwerde) (?:einlegen|erheben)|entscheidung anfechten|beschwerdeverfahren`,
    String.raw`contester (?:la |cette |une )?décision|(?:faire|former|introduire) (?:un )?(?:appel|recours)|droit (?:de recours|d${A}opposition|de contester)`,
    String.raw`(?:impugnar|recurrir|apelar) (?:la |esta |una )?decisión|(?:presentar|interponer) (?:un |una )?(?:recurso|reclamación|apelación)|derecho a (?:impugnar|recurrir|apelar|oponerse)`,
  ],
  examples: ['human review', 'request a human review', 'appeal the decision', 'menschliche Überprüfung', 'supervision humaine', 'revisión humana'],
});

/** Link or button words that name a contact route (lower case). */
const CONTACT_NAME = wordRegex([
  String.raw`contact(?:s| us| form)?|get in touch|email us|e-mail us|write to us|support|customer (?:service|care|support)|help ?desk|help cent(?:er|re)|feedback|complaints?|appeals?|request (?:a )?(?:human )?review|ombuds(?:man|person)`,
  String.raw`kontakt(?:formular|ieren sie uns)?|schreiben sie uns|kundenservice|kundendienst|beschwerde\p{L}*|widerspruch`,
  String.raw`nous contacter|contactez${H}nous|écrivez${H}nous|service client|réclamations?|recours`,
  String.raw`contacto|cont[aá]ctenos|cont[aá]ctanos|escr[ií]b(?:enos|anos)|atención al cliente|reclamaci(?:ón|ones)`,
]);
/** The same as URL path words. */
const CONTACT_HREF = /contact|kontakt|support|feedback|complaint|beschwerde|reclamation|reclamacion|appeal|helpdesk|ombuds/;
/** An email address around an '@': the local part is read backwards, the domain forwards, both bounded. */
const EMAIL_LOCAL_CHAR = /[\p{L}\p{N}._%+-]/u;
const EMAIL_DOMAIN = /^[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63})*\.\p{L}{2,24}/u;
/** '@' signs examined per page, so a page full of them stays cheap. */
const MAX_AT_SIGNS = 200;

/** A contact mechanism and its position in reading order (text-block indices). */
interface Contact {
  kind: 'email link' | 'phone link' | 'contact link' | 'contact button' | 'contact form' | 'email address';
  label: string;
  firstBlock: number;
  lastBlock: number;
}

/** The page's contact mechanisms, lazily: the common no-statement case needs only the first. */
function* contactsOf(corpus: Corpus): Generator<Contact> {
  for (const link of corpus.links) {
    const kind = contactLinkKind(link);
    if (kind !== null) yield { kind, label: link.text || link.href, firstBlock: link.blockIndex, lastBlock: link.blockIndex };
  }
  const blocks = corpus.page.textBlocks;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.element?.name === 'button' && CONTACT_NAME.test(block.text.toLowerCase())) {
      yield { kind: 'contact button', label: block.text, firstBlock: i, lastBlock: i };
    }
  }
  for (const form of corpus.page.forms) {
    if (isContactForm(form)) yield { kind: 'contact form', label: form.action ?? 'form', firstBlock: form.blockStart, lastBlock: Math.max(form.blockStart, form.blockEnd - 1) };
  }
  yield* emailsIn(corpus);
}

function contactLinkKind(link: Link): Contact['kind'] | null {
  const href = link.href.toLowerCase();
  if (href.startsWith('mailto:')) return 'email link';
  if (href.startsWith('tel:')) return 'phone link';
  if (href.startsWith('javascript:')) return CONTACT_NAME.test(link.text.toLowerCase()) ? 'contact link' : null;
  const path = link.url === null ? href : `${link.url.pathname}${link.url.search}${link.url.hash}`.toLowerCase();
  return CONTACT_NAME.test(link.text.toLowerCase()) || CONTACT_HREF.test(path) ? 'contact link' : null;
}

function isContactForm(form: Form): boolean {
  if (!form.visible) return false;
  const attribs = form.element.attribs;
  const named = [form.action ?? '', attribs.id ?? '', attribs.name ?? '', attribs.class ?? '', attribs['aria-label'] ?? ''].join(' ').toLowerCase();
  if (CONTACT_HREF.test(named)) return true;
  const freeText = form.fields.some((f) => f.tag === 'textarea');
  const reachable = form.fields.some((f) => f.type === 'email' || f.type === 'tel' || /mail|phone|tel/i.test(f.name));
  return freeText && reachable;
}

/** Email addresses in visible text, found from each '@' outwards (no unbounded backtracking). */
function emailsIn(corpus: Corpus): Contact[] {
  const page = corpus.page;
  const text = page.text;
  const found: Contact[] = [];
  let at = text.indexOf('@');
  for (let seen = 0; at >= 0 && seen < MAX_AT_SIGNS; seen++, at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 64 && EMAIL_LOCAL_CHAR.test(text[start - 1]!)) start--;
    const domain = EMAIL_DOMAIN.exec(text.slice(at + 1, at + 260));
    if (start === at || domain === null) continue;
    const place = placeOf(corpus, at);
    found.push({ kind: 'email address', label: `${text.slice(start, at)}@${domain[0]}`, firstBlock: place.blockIndex, lastBlock: place.blockIndex });
  }
  return found;
}

const WHAT = 'human oversight, review or appeal statement';

/** The outcomes of this control. */
export const outcomes = {
  /** A statement with a contact mechanism next to it. */
  paired: (corpus: Corpus, statement: Hit, contact: Contact): Outcome =>
    withStatement(corpus, 'pass', statement, ` + ${contact.kind} "${truncate(contact.label, 40)}"`),
  /** A statement, and a contact mechanism only elsewhere on the page: the pairing cannot be established. */
  contactElsewhere: (corpus: Corpus, statement: Hit, contact: Contact): Outcome =>
    withStatement(corpus, 'inconclusive', statement, `; a ${contact.kind} exists elsewhere on the page, not next to it`),
  /** A statement and no contact mechanism anywhere. */
  noContact: (corpus: Corpus, statement: Hit): Outcome =>
    withStatement(corpus, 'fail', statement, ' but no contact mechanism (mailto:, tel:, contact link or form, email address)'),
  /** A contact mechanism but no oversight statement. */
  noStatement: (contact: Contact): Outcome => lookedFor(`A ${contact.kind} exists but no oversight statement`, OVERSIGHT.examples),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** Neither. */
  notFound: (): Outcome => notFound(WHAT, OVERSIGHT),
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
    const corpus = corpusOf(page);
    let contacts: Contact[] | undefined;
    let first: Hit | undefined;
    let from = 0;
    for (let i = 0; i < MAX_STATEMENTS; i++) {
      const statement = findPhrase(corpus, OVERSIGHT, undefined, from);
      if (statement === undefined) break;
      first ??= statement;
      const at = placeOf(corpus, statement.start).blockIndex;
      contacts ??= [...contactsOf(corpus)];
      const near = at < 0 ? undefined : contacts.find((c) => c.lastBlock >= at - PAIRING_WINDOW_BLOCKS && c.firstBlock <= at + PAIRING_WINDOW_BLOCKS);
      if (near !== undefined) return outcomes.paired(corpus, statement, near);
      from = statement.end;
    }
    const anyContact = contacts === undefined ? contactsOf(corpus).next().value : contacts[0];
    if (first !== undefined) return anyContact !== undefined ? outcomes.contactElsewhere(corpus, first, anyContact) : outcomes.noContact(corpus, first);
    if (anyContact !== undefined) return outcomes.noStatement(anyContact);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notFound();
  },
};
