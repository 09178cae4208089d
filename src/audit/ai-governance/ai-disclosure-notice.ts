// ai-governance.ai-disclosure-notice (Govern): the page discloses AI use, AI-generated content,
// or automated decisions.
//
// A disclosure is a sentence (visible text, a heading, the title, a meta or JSON-LD) that names
// AI and either labels content or decisions as made by it ("AI-generated", "sorted by our AI",
// "KI-gestützt", "généré par l'IA", "generato dall'IA") or is the site speaking of its own
// system: first person ("we use", "our AI travel planner", "unser KI-Assistent") or addressing
// its user ("you are chatting with", "your application is scored by", "this summary was
// written with"). Not in a negated clause ("none of our illustrations are AI-generated"). A page
// that only reports on AI ("the start-up launched an AI companion") discloses nothing of its own.
// "AI" / "KI" / "IA" count in capitals only, on word boundaries, so "Mail", "Thai", "via" or
// "Kiosk" never do.
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { discourseOf, hitsIn, isNegated, mentionsAi, scanSentence, type Discourse, type Section, type Sentence } from './discourse.ts';
import { corpusOf, linked, targetWithHref, notFound, quoted, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, AI_TERMS, H, OTHER_PARTIES, OUR, REPORTING, findAll, lexeme } from './lexicon.ts';

/** Content or a decision labelled as made by AI: a disclosure in any voice. */
export const MADE_BY_AI = lexeme({
  lower: [
    String.raw`(?:ai|a\.i\.|genai|llm|ml|algorithm)${H}(?:generated|created|written|produced|assisted|powered|driven|based|enabled|supported|enhanced|curated|translated|edited|summari[sz]ed|moderated|narrated|selected|sorted|ranked|scored|reviewed|checked|made)`,
    String.raw`(?:generated|created|written|produced|drafted|composed|authored|translated|summari[sz]ed|edited|assisted|enhanced|curated|moderated|personali[sz]ed|recommended|narrated|voiced|illustrated|powered|driven|sorted|ranked|scored|screened|assessed|reviewed|checked|flagged|selected|decided|made|answered|handled|read|analy[sz]ed|classified|estimated|predicted|matched|transcribed) (?:\p{L}{1,40} ){0,2}?(?:by|with|using|through|via|with the help of|on the basis of) (?:an? |the |our )?(?:\p{L}{1,40} ){0,2}?(?:ai|a\.i\.|artificial intelligence|machine${H}learning|algorithms?|models?|language models?|llms?|automated (?:systems?|tools?|processes|means)|software)`,
    String.raw`ki${H}(?:generiert|erstellt|erzeugt|gestützt|basiert|unterstützt|assistiert|geschrieben|übersetzt|gesteuert)\p{L}*|(?:mit ?hilfe|mithilfe|unter (?:einsatz|verwendung|nutzung)|durch (?:den )?einsatz|auf basis|auf grundlage) (?:von |der |einer |eines )?(?:ki|künstlicher intelligenz|algorithmen|einem (?:ki-)?\p{L}*modell)|(?:von|durch) (?:einer |der |unserer |einem )?(?:ki|künstliche\p{L}* intelligenz|algorithm\p{L}*|\p{L}*modell) (?:\p{L}{1,40} ){0,2}?(?:generiert|erstellt|erzeugt|geschrieben|verfasst|übersetzt|zusammengefasst|bearbeitet|sortiert|bewertet|geprüft|ausgewählt|entschieden|berechnet)`,
    String.raw`(?:généré|créé|rédigé|produit|traduit|écrit|réalisé|assisté|résumé|illustré|conçu|trié|évalué|analysé|sélectionné|décidé|estimé|calculé)(?:e|s|es)? (?:\p{L}{1,40} ){0,2}?(?:par|avec|grâce à|au moyen d${A}|à l${A}aide d${A}) ?(?:l${A}|une |un |des |notre |nos )?(?:ia|intelligence artificielle|algorithmes?|modèles?|outils? automatisés?)`,
    String.raw`(?:generad|cread|escrit|producid|traducid|redactad|asistid|resumid|ilustrad|clasificad|evaluad|analizad|seleccionad|decidid|estimad|calculad)[oa]s? (?:\p{L}{1,40} ){0,2}?(?:por|con|mediante|usando|a través de|con ayuda de) (?:la |una |un |el |nuestr[oa] )?(?:ia|inteligencia artificial|algoritmos?|modelos?|sistemas? automatizados?)`,
    String.raw`(?:generat|creat|scritt|prodott|tradott|redatt|assistit|riassunt|illustrat|classificat|valutat|analizzat|selezionat|decis|stimat|calcolat)[oaie] (?:\p{L}{1,40} ){0,2}?(?:da|dal|dalla|dall${A}|con|con l${A}|tramite|mediante|grazie a|grazie all${A}) ?(?:la |una |un |il |nostr[oa] )?(?:ia|intelligenza artificiale|algoritm[oi]|modell[oi]|sistem[ai] automatizzat[oi])`,
    String.raw`(?:gegenereerd|gemaakt|geschreven|vertaald|samengevat|beoordeeld|geanalyseerd|geselecteerd|gesorteerd|berekend|ondersteund) (?:\p{L}{1,40} ){0,2}?(?:door|met|via) (?:de |een |onze )?(?:ai|kunstmatige intelligentie|algoritmes?|algoritmen|modellen?)|(?:ai|ki)-(?:gegenereerd|ondersteund|gestuurd)`,
    String.raw`(?:gerad|criad|escrit|produzid|traduzid|redigid|resumid|ilustrad|classificad|avaliad|analisad|selecionad|escolhid|recomendad|ordenad|decidid|estimad|calculad)[oa]s? (?:\p{L}{1,40} ){0,2}?(?:por|com|através de|com a ajuda de) (?:a |uma |um |o |noss[oa] )?(?:ia|inteligência artificial|algoritmos?|modelos?|sistemas? automatizados?)`,
    String.raw`powered by (?:\p{L}{1,40} ){0,2}?(?:ai|artificial intelligence|machine${H}learning|algorithms?|(?:large )?language models?|llms?)`,
  ],
  exact: [String.raw`(?:AI|KI|IA)-(?:generated|generiert\p{L}*|généré\p{L}*|generad[oa]s?|generat[oaie]|gegenereerd|gerad[oa]s?|gestützt\p{L}*|powered|assisted|based|basiert\p{L}*)`],
});

/** A disclosure: the sentence and the AI hit that decided it. */
export interface Disclosure {
  sentence: Sentence;
  hit: Hit;
}

const disclosures = new WeakMap<Discourse, Disclosure | null>();

/**
 * The page's first disclosure, memoised: the other controls ask for it too, because they
 * document a system the page discloses, not AI the page merely writes about.
 */
export function disclosureOf(d: Discourse): Disclosure | undefined {
  let found = disclosures.get(d);
  if (found === undefined) {
    found = findDisclosure(d) ?? null;
    disclosures.set(d, found);
  }
  return found ?? undefined;
}

/**
 * The first sentence, in reading order, that discloses AI the site itself uses or offers.
 *
 * - On editorial pages (a byline or genre label: news, reviews, opinion) the AI discussed is
 *   usually someone else's, so only the site's own voice counts: "our AI …", or a label on its
 *   own content ("this summary was written with AI", a caption "AI-generated image").
 * - Elsewhere (product, service, policy and help pages) the page describes what the site
 *   offers, so an affirmed AI term is a disclosure: "An AI vision model locates parts in the bin".
 * - Anywhere, a sentence that attributes the system to another party ("Lumio says", "nach
 *   Angaben des Herstellers") reports rather than discloses.
 */
function findDisclosure(d: Discourse): Disclosure | undefined {
  const lang = d.lang;
  for (let i = 0; i < d.sentences.length; i++) {
    const sentence = d.sentences[i]!;
    // Every disclosure names AI, so sentences without an AI term are skipped before the costlier cues.
    const terms = hitsIn(sentence, AI_TERMS).filter((hit) => !isLawTopic(d, hit));
    if (terms.length === 0 || isReported(d, sentence) || rebutted(sentence, d.sentences[i + 1])) continue;
    const affirmed = (hit: Hit) => !isNegated(d, sentence, hit.start, hit.end);
    const made = scanSentence(sentence, MADE_BY_AI).find(affirmed);
    const asks = sentence.text.trimEnd().endsWith('?');
    if (made !== undefined && !(asks && !possessed(sentence, made, lang) && !ownInside(sentence, made, lang)) && (!d.editorial || isLabel(sentence) || scanSentence(sentence, THIS_CONTENT).length > 0)) return { sentence, hit: made };
    if (SPREADSHEET.test(sentence.lower)) continue;
    const ai = terms.find(
      (hit) =>
        affirmed(hit) &&
        !negatedPredicate(d, sentence, hit) &&
        !isTopicLabel(sentence, hit) &&
        !isTopicLead(sentence, hit, lang) &&
        !isFieldClaim(sentence, hit) &&
        // A question asks rather than discloses ("Have you been screened out by software?"), unless it names the site's own system.
        !(asks && !possessed(sentence, hit, lang) && !ownInside(sentence, hit, lang)) &&
        !(inQuotes(sentence, hit) && !possessed(sentence, hit, lang)) &&
        (!d.editorial || possessed(sentence, hit, lang)),
    );
    if (ai !== undefined) return { sentence, hit: ai };
  }
  return undefined;
}

/**
 * The next sentence of the block rebuts this one in a few words ("Sui siti delle grandi librerie i
 * suggerimenti arrivano da un algoritmo … Qui no."): the page describes others to say it differs.
 */
function rebutted(s: Sentence, next: Sentence | undefined): boolean {
  return next !== undefined && next.blockIndex === s.blockIndex && REBUTTAL.test(next.lower.trim());
}
const REBUTTAL =
  /^(?:not (?:here|with us|at [\p{L}]+)|but not (?:here|us)|hier nicht|bei uns nicht|nicht bei uns|ici,? non|pas (?:ici|chez nous)|aquí no|no aquí|con nosotros no|qui no|non qui|da noi no|hier niet|bij ons niet|niet bij ons|aqui não|não aqui|cá não|connosco não|conosco não)[.!]?$/u;

/**
 * The sentence, or an AI sentence of its section, attributes the system to another party: the
 * heading "Port operator bets on AI" of a section whose next sentence says "announced" reports
 * too.
 */
export function isReported(d: Discourse, s: Sentence): boolean {
  if (reports(s)) return true;
  if (s.section === null) return false;
  let reported = reportedSections.get(s.section);
  if (reported === undefined) {
    reported = s.section.sentences.some((x) => mentionsAi(d, x) && reports(x));
    reportedSections.set(s.section, reported);
  }
  return reported;
}

const reportedSections = new WeakMap<Section, boolean>();
const reports = (s: Sentence): boolean => scanSentence(s, REPORTING).length > 0 || scanSentence(s, OTHER_PARTIES).length > 0;

/**
 * AI as a field that changes the world ("Artificial intelligence is changing how banks lend",
 * "Künstliche Intelligenz verändert die Verwaltung", "La inteligencia artificial está transformando
 * la medicina"): the term opens the sentence, bare or with a definite article, and its verb is one
 * of change; no first person in the sentence. Commentary, not a system the site uses.
 */
function isFieldClaim(s: Sentence, hit: Hit): boolean {
  const before = s.lower.slice(0, hit.start - s.start).trim();
  if (before !== '' && !GENERIC_ARTICLE.test(before)) return false;
  const after = s.lower.slice(hit.end - s.start, hit.end - s.start + 40);
  return FIELD_CHANGE.test(after) && !FIRST_PERSON.test(s.lower);
}
const GENERIC_ARTICLE = /^(?:the|die|la|l['’]|a|de|het)$/u;
const FIELD_CHANGE =
  /^ (?:(?:is|are|has|have|will|wird|hat|est|a|va|está|ha|va|sta|ha|is|heeft|zal|está|vai|tem) (?:\p{L}+ )?)?(?:chang\p{L}*|transform\p{L}*|revolutioni[sz]\p{L}*|reshap\p{L}*|disrupt\p{L}*|verändert|verändern|revolutioniert|umgekrempelt|bouleverse\p{L}*|révolutionne\p{L}*|change|cambiando|cambia|transforma\p{L}*|revoluciona\p{L}*|trasforma\p{L}*|rivoluziona\p{L}*|cambiando|verandert|veranderen|transformeert|revolutioneert|mudando|muda|a mudar|a transformar)(?![\p{L}])/u;
const FIRST_PERSON = /(?<![\p{L}])(?:we|our|us|wir|unser\p{L}*|uns|nous|notre|nos|nosotros|nuestr\p{L}*|noi|nostr\p{L}*|wij|onze|ons|nós|noss\p{L}*)(?![\p{L}])/u;

/**
 * AI as the subject matter of a law ("the AI Act", "Regolamento europeo sull'intelligenza
 * artificiale", "die KI-Verordnung", "la loi sur l'IA"): the page writes about regulation, not
 * about a system of its own.
 */
function isLawTopic(d: Discourse, hit: Hit): boolean {
  const before = d.corpus.lower.slice(Math.max(0, hit.start - LAW_REACH), hit.start);
  const after = d.corpus.lower.slice(hit.end, hit.end + LAW_REACH);
  return LAW_BEFORE.test(before) || LAW_AFTER.test(after) || LAW_COMPOUND.test(d.corpus.lower.slice(hit.start, hit.end));
}

const LAW_REACH = 60;
const LAW_NOUN = String.raw`(?:act|regulation|law|directive|bill|regolamento|legge|direttiva|verordnung|gesetz|richtlinie|règlement|loi|reglamento|ley|directiva|wet|verordening|regulamento|lei)`;
const LAW_BEFORE = new RegExp(String.raw`(?<![\p{L}])${LAW_NOUN}(?: \(?[\p{L}\d/]+\)?){0,3} (?:on|about|governing|sull${A}|sulla|sul|sugli|über|zur|sur|sobre|over|inzake|betreffende|relativ[oa] all${A}|relative à|on the)(?: (?:the|l${A}|la|el|de|die|het|a|o))? ?$`, 'u');
const LAW_AFTER = new RegExp(String.raw`^${H}(?:act|gesetz|verordnung|wet)(?![\p{L}])`, 'u');
const LAW_COMPOUND = /(?:-|\s)(?:act|gesetz|verordnung|verordening|wet)$/u;

/**
 * The term is the subject of a negated predicate ("AI hasn't meaningfully changed anything in
 * cybersecurity"): a claim about AI as a field, not a system in use. The negation must follow
 * the term within two words and before any clause break.
 */
function negatedPredicate(d: Discourse, s: Sentence, hit: Hit): boolean {
  const after = d.corpus.lower.slice(hit.end, Math.min(s.end, hit.end + PREDICATE_REACH)).split(/[,;:–—(]/u)[0]!;
  const words = after.trim().split(' ').slice(0, 2).join(' ');
  if (words !== '' && findAll(d.negation, words, words).length > 0) return true;
  // A verb-final "is not used" after the subject it negates, the terms listed before it: "Künstliche
  // Intelligenz oder automatisierte Entscheidungsverfahren kommen dabei nicht zum Einsatz".
  return NOT_USED.test(d.corpus.lower.slice(hit.end, Math.min(s.end, hit.end + NOT_USED_REACH)));
}
/** How far after a term its verb-final "nicht zum Einsatz" is looked for: the clause, not a whole unbounded sentence per term. */
const NOT_USED_REACH = 200;
const NOT_USED =
  /^[^.;:!?]*?\b(?:kommt|kommen|wird|werden|wurde|wurden|ist|sind|wordt|worden|werd|komt|komen) (?:\p{L}+ ){0,3}?(?:nicht|nie|niemals|niet|nooit) (?:zum einsatz|eingesetzt|verwendet|genutzt|benutzt|angewendet|gebraucht|gebruikt|ingezet|toegepast|aan te pas)/u;
const PREDICATE_REACH = 30;

/** A sentence that is nothing but the AI term: a menu entry, tag or category ("Machine Learning"). */
function isTopicLabel(s: Sentence, hit: Hit): boolean {
  const bare = (text: string) => text.replace(/[\s.:·|>»›#-]+/gu, '').length;
  return bare(s.text) <= bare(s.text.slice(hit.start - s.start, hit.end - s.start));
}

/**
 * The term names the topic of what follows rather than a system in use: a question heading ("Et
 * l'intelligence artificielle ?", "Do we use AI?"), unless it says "our AI"; or a lead before a
 * colon that opens on "about" ("Sobre el uso de sistemas automatizados: en este procedimiento no
 * se emplea …"), whose answer comes after the colon and is read on its own.
 */
function isTopicLead(s: Sentence, hit: Hit, lang: string): boolean {
  if (s.isHeading && s.text.trimEnd().endsWith('?')) return !possessed(s, hit, lang);
  const colon = s.text.indexOf(':');
  return colon >= 0 && hit.end - s.start <= colon && ABOUT_LEAD.test(s.lower);
}
const ABOUT_LEAD = /^(?:about|regarding|concerning|on the use of|sobre|acerca de|en cuanto a|respecto a|à propos d|concernant|quant à|sur l|über|zum|zur|bezüglich|hinsichtlich|riguardo|circa|in merito|sull|sull['’]uso|over|betreffende|omtrent|wat betreft|quanto a|em relação|acerca d)/u;

/**
 * Arithmetic done by a spreadsheet or calculator ("O valor final é calculado automaticamente pela
 * nossa planilha de custos"): automatic, but no system deciding anything.
 */
const SPREADSHEET = /(?:^|[^\p{L}])(?:spreadsheets?|calculators?|tabellenkalkulation|tableurs?|hojas? de cálculo|calculadoras?|fogli(?:o)? di calcolo|rekenbla(?:d|den)|planilhas?|excel)(?![\p{L}])/u;

/**
 * The term inside quotation marks: a title or someone's slogan ("Oficina para seniores:
 * «Inteligência artificial no dia a dia»", roteiro “criado por inteligência artificial”), not the
 * site saying it uses AI, unless it says "our".
 */
function inQuotes(s: Sentence, hit: Hit): boolean {
  // German „…" is often closed with a straight quote: a straight quote closes an open typographic one first.
  let open = 0;
  let straight = false;
  for (const ch of s.text.slice(0, hit.start - s.start)) {
    if (ch === '«' || ch === '“' || ch === '„') open++;
    else if (ch === '»' || ch === '”') open = Math.max(0, open - 1);
    else if (ch === '"') {
      if (open > 0) open--;
      else straight = !straight;
    }
  }
  return open > 0 || straight;
}

/** A caption or badge on the page's own content: a few words ("AI-generated image"). */
const LABEL_MAX_WORDS = 8;
function isLabel(s: Sentence): boolean {
  return s.text.split(' ').length <= LABEL_MAX_WORDS;
}

/** The page's own content as the subject: "this article", "dieser Text", "cette réponse", "este resumen". */
const THIS_CONTENT = lexeme({
  lower: [
    String.raw`(?:this|these|dieser|diese|dieses|ce|cet|cette|ces|este|esta|estos|estas|estes|questo|questa|questi|queste|deze|dit) (?:\p{L}{1,40} ){0,2}?(?:article|text|story|post|guide|page|site|website|newsletter|episode|podcast|video|review|recipe|listing|description|report|summary|summaries|images?|pictures?|photos?|illustrations?|graphics?|artwork|content|answer|reply|translation|artikel|beitrag|ratgeber|seite|webseite|bild|bilder|fotos?|grafik\p{L}*|inhalt|antwort|zusammenfassung|übersetzung|texte|guide|page|site|photos?|illustrations?|résumé|contenu|réponse|traduction|artículo|guía|página|sitio|texto|resumen|imagen|imágenes|fotos?|ilustraci\p{L}+|contenido|respuesta|traducción|articolo|guida|pagina|sito|testo|riassunto|immagin[ei]|foto|illustrazion[ei]|contenuto|risposta|traduzione|tekst|gids|pagina|website|samenvatting|afbeelding\p{L}*|illustratie\p{L}*|inhoud|antwoord|vertaling|artigo|guia|página|texto|resumo|imag(?:em|ens)|fotos?|ilustraç\p{L}+|conteúdo|resposta|tradução)`,
  ],
});

/** How many words a possessive may stand before the AI term it owns ("our new AI-powered search"). */
const POSSESSIVE_REACH_WORDS = 2;

/** "our AI travel planner", "unser neuer KI-Assistent": the AI term right after a first-person possessive. */
function possessed(s: Sentence, hit: Hit, lang: string): boolean {
  const before = s.lower.slice(0, hit.start - s.start).trimEnd().split(' ');
  return before.slice(-1 - POSSESSIVE_REACH_WORDS).some((word) => isOur(word, lang));
}

/** "our" inside the hit itself: "screened out by our software". */
function ownInside(s: Sentence, hit: Hit, lang: string): boolean {
  return s.lower.slice(hit.start - s.start, hit.end - s.start).split(' ').some((word) => isOur(word, lang));
}

/** A first-person possessive; Portuguese and Spanish "nos" is "in the" or "us", not the French "our". */
function isOur(word: string, lang: string): boolean {
  return findAll(OUR, word, word).length > 0 && !(word === 'nos' && lang !== 'fr');
}

export const DISCLOSURE_EXAMPLES = [
  'generated by AI',
  'we use artificial intelligence',
  'our AI assistant',
  'automated decisions about your application',
  'KI-generiert',
  "généré par l'IA",
  'generado por IA',
  "generato dall'IA",
];

/** AI-use notices as URL path words of a visible link ("/ai-disclosure", "/how-we-use-ai"). */
const DISCLOSURE_HREF = /ai[-_]?(?:disclosure|generated|transparency|notice|use[-_]policy)|how[-_]we[-_]use[-_](?:ai|artificial[-_]intelligence)|use[-_]of[-_]ai|ki[-_]?(?:hinweis|transparenz|kennzeichnung)/;

const WHAT = 'AI-use disclosure';

/** The outcomes of this control. */
export const outcomes = {
  /** A disclosure sentence was found; the evidence quotes it with its context. */
  disclosed: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'AI-use disclosure', hit),
  /** A visible link to an AI-use notice, by its href (not followed). */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'AI-use notice linked (not followed)', link),
  /** No disclosure, and the page is a script-rendered shell: the notice may be rendered by script. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** No disclosure in a page whose content is in the static HTML. */
  notDisclosed: (): Outcome => notFound(WHAT, { examples: DISCLOSURE_EXAMPLES }),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.ai-disclosure-notice',
  branch: 'ai-governance',
  framework: 'Govern',
  requirement: 'Page discloses AI use, AI-generated content, or automated decisions.',
  // Error: telling people they face AI or AI-made content is the baseline transparency duty
  // (EU AI Act art. 50); every other control documents a system the visitor was told about.
  severity: 'error',
  evaluate(page) {
    const corpus = corpusOf(page);
    const disclosure = disclosureOf(discourseOf(page));
    if (disclosure !== undefined) return outcomes.disclosed(corpus, disclosure.hit);
    const link = targetWithHref(corpus, DISCLOSURE_HREF);
    if (link !== undefined) return outcomes.linked(corpus, link);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notDisclosed();
  },
};
