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
import { discourseOf, hitsIn, isNegated, type Discourse, type Sentence } from './discourse.ts';
import { corpusOf, linked, targetWithHref, notFound, quoted, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, AI_TERMS, DEPLOYER_VOICE, H, SERVICE_VOICE, findAll, lexeme, type Span } from './lexicon.ts';

/** Content or a decision labelled as made by AI: a disclosure in any voice. */
export const MADE_BY_AI = lexeme({
  lower: [
    String.raw`(?:ai|a\.i\.|genai|llm|ml|algorithm)${H}(?:generated|created|written|produced|assisted|powered|driven|based|enabled|supported|enhanced|curated|translated|edited|summari[sz]ed|moderated|narrated|selected|sorted|ranked|scored|reviewed|checked|made)`,
    String.raw`(?:generated|created|written|produced|drafted|composed|authored|translated|summari[sz]ed|edited|assisted|enhanced|curated|moderated|personali[sz]ed|recommended|narrated|voiced|illustrated|powered|driven|sorted|ranked|scored|screened|assessed|reviewed|checked|flagged|selected|decided|made|answered|handled|read|analy[sz]ed|classified|estimated|predicted|matched|transcribed) (?:\p{L}+ ){0,2}?(?:by|with|using|through|via|with the help of|on the basis of) (?:an? |the |our )?(?:\p{L}+ ){0,2}?(?:ai|a\.i\.|artificial intelligence|machine${H}learning|algorithms?|models?|language models?|llms?|automated (?:systems?|tools?|processes|means)|software)`,
    String.raw`ki${H}(?:generiert|erstellt|erzeugt|gestützt|basiert|unterstützt|assistiert|geschrieben|übersetzt|gesteuert)\p{L}*|(?:mit ?hilfe|mithilfe|unter (?:einsatz|verwendung|nutzung)|durch (?:den )?einsatz|auf basis|auf grundlage) (?:von |der |einer |eines )?(?:ki|künstlicher intelligenz|algorithmen|einem (?:ki-)?\p{L}*modell)|(?:von|durch) (?:einer |der |unserer |einem )?(?:ki|künstliche\p{L}* intelligenz|algorithm\p{L}*|\p{L}*modell) (?:\p{L}+ ){0,2}?(?:generiert|erstellt|erzeugt|geschrieben|verfasst|übersetzt|zusammengefasst|bearbeitet|sortiert|bewertet|geprüft|ausgewählt|entschieden|berechnet)`,
    String.raw`(?:généré|créé|rédigé|produit|traduit|écrit|réalisé|assisté|résumé|illustré|conçu|trié|évalué|analysé|sélectionné|décidé|estimé|calculé)(?:e|s|es)? (?:\p{L}+ ){0,2}?(?:par|avec|grâce à|au moyen d${A}|à l${A}aide d${A}) ?(?:l${A}|une |un |des |notre |nos )?(?:ia|intelligence artificielle|algorithmes?|modèles?|outils? automatisés?)`,
    String.raw`(?:generad|cread|escrit|producid|traducid|redactad|asistid|resumid|ilustrad|clasificad|evaluad|analizad|seleccionad|decidid|estimad|calculad)[oa]s? (?:\p{L}+ ){0,2}?(?:por|con|mediante|usando|a través de|con ayuda de) (?:la |una |un |el |nuestr[oa] )?(?:ia|inteligencia artificial|algoritmos?|modelos?|sistemas? automatizados?)`,
    String.raw`(?:generat|creat|scritt|prodott|tradott|redatt|assistit|riassunt|illustrat|classificat|valutat|analizzat|selezionat|decis|stimat|calcolat)[oaie] (?:\p{L}+ ){0,2}?(?:da|dal|dalla|dall${A}|con|con l${A}|tramite|mediante|grazie a|grazie all${A}) ?(?:la |una |un |il |nostr[oa] )?(?:ia|intelligenza artificiale|algoritm[oi]|modell[oi]|sistem[ai] automatizzat[oi])`,
    String.raw`(?:gegenereerd|gemaakt|geschreven|vertaald|samengevat|beoordeeld|geanalyseerd|geselecteerd|gesorteerd|berekend|ondersteund) (?:\p{L}+ ){0,2}?(?:door|met|via) (?:de |een |onze )?(?:ai|kunstmatige intelligentie|algoritmes?|algoritmen|modellen?)|(?:ai|ki)-(?:gegenereerd|ondersteund|gestuurd)`,
    String.raw`(?:gerad|criad|escrit|produzid|traduzid|redigid|resumid|ilustrad|classificad|avaliad|analisad|selecionad|decidid|estimad|calculad)[oa]s? (?:\p{L}+ ){0,2}?(?:por|com|através de|com a ajuda de) (?:a |uma |um |o |noss[oa] )?(?:ia|inteligência artificial|algoritmos?|modelos?|sistemas? automatizados?)`,
    String.raw`powered by (?:\p{L}+ ){0,2}?(?:ai|artificial intelligence|machine${H}learning|algorithms?|(?:large )?language models?|llms?)`,
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

function findDisclosure(d: Discourse): Disclosure | undefined {
  for (const sentence of d.sentences) {
    for (const hit of hitsIn(sentence, MADE_BY_AI)) {
      if (!isNegated(d, sentence, hit.start, hit.end)) return { sentence, hit };
    }
    const ai = hitsIn(sentence, AI_TERMS).find((hit) => !isNegated(d, sentence, hit.start, hit.end) && ownVoice(sentence, hit));
    if (ai !== undefined) return { sentence, hit: ai };
  }
  return undefined;
}

/** How far (characters) a first- or second-person word may be from the AI term it frames. */
const VOICE_REACH = 50;

/**
 * The site speaking of its own system: "our AI damage assessment tool", "you are chatting with
 * an AI". Not when the words between make AI the subject of study ("we looked at how AI might
 * change", "wir fragten, ob KI").
 */
function ownVoice(s: Sentence, hit: Hit): boolean {
  const at = { start: hit.start - s.start, end: hit.end - s.start };
  const frames = (span: Span): boolean => {
    if (span.end < at.start - VOICE_REACH || span.start > at.end + VOICE_REACH) return false;
    const between = span.end <= at.start ? s.lower.slice(span.end, at.start) : s.lower.slice(at.end, span.start);
    return findAll(ABOUT_AI, between, between).length === 0;
  };
  return findAll(DEPLOYER_VOICE, s.text, s.lower).some(frames) || findAll(SERVICE_VOICE, s.text, s.lower).some(frames);
}

/** Words that turn AI into a topic rather than the speaker's own system. */
const ABOUT_AI = lexeme({
  lower: [
    String.raw`how|why|whether|what|about|impact|know|knew|believe|think|expect|predict|hope|fear|see|saw|say|said|argue|asked|looked`,
    String.raw`wie|ob|warum|über|wissen|glauben|denken|erwarten|comment|pourquoi|sur|savons|croyons|pensons|cómo|por qué|sobre|sabemos|creemos|pensamos|come|perché|sappiamo|crediamo|pensiamo|hoe|waarom|over|weten|denken|como|porque|acreditamos`,
  ],
});

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
