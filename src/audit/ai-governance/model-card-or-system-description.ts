// ai-governance.model-card-or-system-description (Measure): the page links to a model card,
// system card, system description, or technical documentation.
//
// On a page that discloses an AI system of its own (`disclosureOf`), passes on a visible link
// naming such a document, by its name or its href (the document is never followed), or when
// the page is itself one (its title or h1 names it). Names come in two kinds, in EN, DE, FR,
// ES, IT, NL and PT:
//
// - documents that only AI systems have: "model card", "system card", "AI fact sheet",
//   "Modellkarte", "fiche modèle", "tarjeta del modelo", "scheda del modello", "modelkaart",
//   "cartão do modelo";
// - generic documentation: "system description", "technical documentation",
//   "Systembeschreibung", "documentation technique", "documentación técnica", "documentazione
//   tecnica", "systeembeschrijving", "documentação técnica". These count only about the AI
//   system: the link names AI, a model or algorithm, or the page's name for its system, or it
//   sits in an AI-related sentence or section. So the "technical documentation" of a heat pump
//   does not count, and a "technical data sheet" / "Datenblatt" / "ficha técnica" never does.
//
// A governance artifact ("model evaluation report") is not a model card. A document only
// mentioned in text ("available on request") is not linked: that fails, quoting the mention.
// URLs in metas and JSON-LD do not count (no visitor sees them).
import type { Control, Outcome } from '../control.ts';
import type { Link, Page } from '../page.ts';
import { onOwnSite, ownSystemOf, reportedLink } from './own-system.ts';
import { discourseOf, hitsIn, isAiSentence, isNegated, linkSentence, type Discourse, type Sentence } from './discourse.ts';
import { corpusOf, linked, lookedFor, quoted, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, AI_TERMS, H, findAll, lexeme } from './lexicon.ts';

/** Documents only an AI system has: a model card, system card, AI fact sheet, in any of the languages. */
const MODEL_DOCUMENT = [
  String.raw`(?:model|system|ai)${H}cards?|(?:ai|model)${H}fact${H}sheets?|transparency notes?|model details|model documentation`,
  String.raw`(?:ki${H})?(?:modell|system)${H}karten?|modell${H}steckbrief\p{L}*|ki${H}steckbrief\p{L}*|modell${H}dokumentation\p{L}*`,
  String.raw`(?:fiche|carte)s? (?:du |de |d${A})?(?:modèle|système)|fiche d${A}identité du modèle|documentation du modèle`,
  String.raw`(?:tarjeta|ficha)s? (?:del |de |de la )?(?:modelo|sistema)|documentación del modelo`,
  String.raw`(?:scheda|schede|carta) (?:del |di |dei )?(?:modello|modelli|sistema)|documentazione del modello`,
  String.raw`model${H}?kaart(?:en)?|systeem${H}?kaart(?:en)?|modeldocumentatie`,
  String.raw`(?:cartão|cartões|ficha|fichas) (?:do |de )?(?:modelo|sistema)|documentação do modelo`,
];
/** A description of "the system": on a page with one AI system of its own, that is the one. */
const SYSTEM_DOCUMENT = [
  String.raw`system (?:descriptions?|overview)|(?:description|overview) of the (?:\p{L}+ )?system|systembeschreibung\p{L}*|systeembeschrijving\p{L}*|algorithmic transparency records?`,
  String.raw`(?:fiche|scheda|schede|ficha|fichas|description|descripción|descrizione|descrição|documento de descrição|documento de descripción) (?:\p{L}+ ){0,1}?(?:du|del|della|dello|do|da|de la|van het) (?:système|sistema|systeem)`,
  // French public bodies describe a "traitement algorithmique" (CRPA art. L311-3-1): its description is the system's.
  String.raw`(?:description|descriptif|fiche) (?:\p{L}+ ){0,1}?(?:du|des) traitements? algorithmiques?`,
];
/** Documents only an AI system has, or a description of the system. */
const AI_DOCUMENT = lexeme({ lower: [...MODEL_DOCUMENT, ...SYSTEM_DOCUMENT] });
/** The same, of a model only ("system" is left out: a "fiche technique du système" may be a boiler's). */
const MODEL_DOCUMENT_ONLY = lexeme({
  lower: [
    String.raw`(?:model|system|ai)${H}cards?|(?:ai|model)${H}fact${H}sheets?|transparency notes?|model documentation|(?:ki${H})?modell${H}karten?|(?:modell|ki)${H}steckbrief\p{L}*|modell${H}dokumentation\p{L}*`,
    String.raw`(?:fiche|carte|tarjeta|ficha|scheda|schede|carta|cartão|cartões)s? (?:du |de |d${A}|del |de la |di |dei |do )?(?:modèle|modelo|modello|modelli)|(?:documentation du|documentación del|documentazione del|documentação do) (?:modèle|modelo|modello)|model${H}?kaart(?:en)?|modeldocumentatie`,
  ],
});

/** Generic documentation: counts only about the AI system. */
const DOCUMENTATION = lexeme({
  lower: [
    String.raw`(?:technical|system|model|algorithm) documentation|technical (?:descriptions?|documents?|overviews?)|instructions for use|algorithm descriptions?`,
    String.raw`systembeschreibung\p{L}*|technische\p{L}* (?:dokumentation|beschreibung|übersicht)\p{L}*|gebrauchsanweisung\p{L}*|algorithmusbeschreibung\p{L}*`,
    String.raw`description (?:technique|du système|du modèle|de l${A}algorithme)|documentation (?:technique|du système)|(?:aperçu|présentation) technique|fiche descriptive|notice d${A}utilisation`,
    String.raw`descripci(?:ón|ones) (?:técnica|del sistema|del modelo|del algoritmo)|documentación (?:técnica|del sistema)|resumen técnico|ficha descriptiva`,
    String.raw`descrizione (?:tecnica|del sistema|del modello|dell${A}algoritmo)|documentazione (?:tecnica|del sistema)|panoramica tecnica|scheda descrittiva`,
    String.raw`systeembeschrijving\p{L}*|technische (?:documentatie|beschrijving|toelichting)|technisch overzicht|beschrijving van het (?:\p{L}*algoritme|\p{L}*systeem|\p{L}*model)|algoritmebeschrijving`,
    String.raw`descriç(?:ão|ões) (?:técnica|do sistema|do modelo|do algoritmo)|documentação (?:técnica|do sistema)|visão geral técnica|ficha descritiva`,
  ],
});

/**
 * A product's data sheet ("fiche technique", "Datenblatt", "scheda tecnica del modello"): the
 * documentation of the AI system only when the rest of its name names it ("Fiche technique de
 * l'assistant Volta (PDF)", "Ficha técnica do modelo – Assistente de Respostas"), not a car's
 * "Scheda tecnica del modello Ventura Hybrid", and not by where it sits.
 */
const DATA_SHEET = lexeme({
  lower: [
    String.raw`(?:technical (?:data ?)?sheets?|(?:technisches )?datenblatt\p{L}*|fiches? techniques?|fichas? técnicas?|sched[ae] tecnic(?:a|he)|technische fiches?)(?: (?:of the |du |de |d${A}|del |de la |di |dei |do |da |van het )?(?:model|modèle|modelo|modello|modelli|modells|système|sistema|systeem|system))?`,
  ],
});

/** A model named by what it predicts ("del modello di previsione", "del modelo de calificación"): a statistical model, not a product's. */
const ML_TASK = /^\s*(?:de|di|of|for|do|da|du|für|voor) (?:la |le |l['’])?(?:calificación|puntuación|previsión|predicción|clasificación|detección|riesgo|scoring|previsione|predizione|punteggio|classificazione|rilevamento|rischio|prévision|prédiction|notation|classification|détection|risque|forecast\p{L}*|prediction|classification|detection|risk|pontuação|previsão|classificação|detecção|risco|voorspelling|classificatie|detectie|risico|vorhersage|prognose|klassifikation|erkennung|risiko)(?![\p{L}])/u;

/** What makes generic documentation about the AI system: AI, a model, an algorithm. */
const ABOUT_AI = lexeme({
  // German and Dutch compounds end on the noun: "Attenderingsalgoritme", "Bewertungsmodell".
  lower: [String.raw`models?|modell\p{L}*|modèles?|modelos?|modell[oi]|algorithm\p{L}*|algoritm\p{L}*|algorithmes?|classifier|chatbot\p{L}*|assistant\p{L}*|assistent\p{L}*|asistente\p{L}*|\p{L}+s(?:algoritme|algorithmus|modell|model)`],
  exact: [String.raw`AI|A\.I\.|KI|IA|(?:AI|KI|IA)-\p{L}+|\p{L}+-(?:AI|KI|IA)`],
});

/** The same documents as URL path words. */
const AI_DOCUMENT_HREF = /model[-_]?cards?|system[-_]?cards?|transparency[-_]notes?|modell[-_]?karte|ai[-_]?fact[-_]?sheets?|fiche[-_](?:du[-_])?(?:modele|modèle|systeme|système)|(?:ficha|tarjeta)[-_](?:del[-_])?modelo|scheda[-_](?:del[-_])?modello|model[-_]?kaart|cartao[-_]do[-_]modelo/;
const DOCUMENTATION_HREF = /system[-_]?description|technical[-_]?documentation|tech[-_]docs|systembeschreibung|technische[-_]dokumentation|documentation[-_]technique|documentacion[-_]tecnica|documentazione[-_]tecnica|systeembeschrijving|documentacao[-_]tecnica|descricao[-_]do[-_]sistema/;

type Found = { link: Target } | { self: Hit } | { mention: Hit };

const found = new WeakMap<Discourse, Found | null>();

function foundOf(d: Discourse): Found | undefined {
  let f = found.get(d);
  if (f === undefined) {
    f = find(d) ?? null;
    found.set(d, f);
  }
  return f ?? undefined;
}

function find(d: Discourse): Found | undefined {
  const corpus = d.corpus;
  for (const link of corpus.links) {
    if (!namesDocument(d, link)) continue;
    const target = corpus.targets.find((t) => t.element === link.element);
    if (target !== undefined) return { link: target };
  }
  let mention: Hit | undefined;
  for (const s of d.sentences) {
    const hit = [...hitsIn(s, AI_DOCUMENT), ...hitsIn(s, DOCUMENTATION).filter(() => aboutAi(d, s.text, s.lower) || isAiSentence(d, s))].find(
      (h) => !isNegated(d, s, h.start, h.end),
    );
    if (hit === undefined) continue;
    if (isTitleOrH1(d, s)) return { self: hit };
    mention ??= hit;
  }
  return mention === undefined ? undefined : { mention };
}

function aboutAi(d: Discourse, text: string, lower: string): boolean {
  return findAll(ABOUT_AI, text, lower).length > 0 || findAll(AI_TERMS, text, lower).length > 0 || d.systemNames.some((name) => lower.includes(name));
}

/**
 * What makes a document's name about an AI or algorithmic system for the page-level gate: AI, a
 * model or an algorithm ("Description détaillée du traitement algorithmique", "Scheda del
 * modello di scoring"). Stricter than ABOUT_AI: an "assistant" may be a person.
 */
const NAMES_MODEL = lexeme({
  lower: [String.raw`models?|modell\p{L}*|modèles?|modelos?|modell[oi]|modellen|algorithm\p{L}*|algor[ií]tm\p{L}*|algorithmes?|\p{L}+s(?:algoritme|algorithmus|modell|model)`],
});

/**
 * For the page-level gate (own-system.ts): a visible link on the site's own host to the
 * documentation of an AI system, by its name: a model card, system card or AI fact sheet (or
 * such an href), or documentation whose name names AI, a model or an algorithm. Not in a negated
 * or reported sentence.
 */
export function systemDocumentLink(d: Discourse): Target | undefined {
  for (const link of d.corpus.links) {
    const lower = link.text.toLowerCase();
    const model = findAll(MODEL_DOCUMENT_ONLY, link.text, lower).length > 0 || AI_DOCUMENT_HREF.test(link.href.toLowerCase());
    const documentation = !model && (findAll(AI_DOCUMENT, link.text, lower).length > 0 || findAll(DOCUMENTATION, link.text, lower).length > 0);
    if (!model && !(documentation && (findAll(NAMES_MODEL, link.text, lower).length > 0 || findAll(AI_TERMS, link.text, lower).length > 0))) continue;
    if (!onOwnSite(d, link) || reportedLink(d, link)) continue;
    const sentence = linkSentence(d, link);
    if (sentence !== undefined && negated(d, sentence, link)) continue;
    const target = d.corpus.targets.find((t) => t.element === link.element);
    if (target !== undefined) return target;
  }
  return undefined;
}

/** A link naming the document, by name or href; generic documentation only about the AI system. */
function namesDocument(d: Discourse, link: Link): boolean {
  const lower = link.text.toLowerCase();
  const href = link.href.toLowerCase();
  const specific = findAll(AI_DOCUMENT, link.text, lower).length > 0 || AI_DOCUMENT_HREF.test(href);
  const dataSheet = !specific && findAll(DOCUMENTATION, link.text, lower).length === 0 && !DOCUMENTATION_HREF.test(href);
  if (dataSheet) {
    const sheet = findAll(DATA_SHEET, link.text, lower)[0];
    if (sheet === undefined) return false;
    const rest = `${link.text.slice(0, sheet.start)} ${link.text.slice(sheet.end)}`;
    if (!aboutAi(d, rest, rest.toLowerCase()) && !ML_TASK.test(rest.toLowerCase())) return false;
  }
  const sentence = linkSentence(d, link);
  if (sentence !== undefined && negated(d, sentence, link)) return false;
  return specific || aboutAi(d, link.text, lower) || (sentence !== undefined && isAiSentence(d, sentence));
}

function negated(d: Discourse, s: Sentence, link: Link): boolean {
  if (link.nameFrom !== 'content') return false;
  const at = s.text.indexOf(link.text);
  return at >= 0 && isNegated(d, s, s.start + at, s.start + at + link.text.length);
}

function isTitleOrH1(d: Discourse, s: Sentence): boolean {
  if (s.isHeading) return s.section?.level === 1;
  const title = d.corpus.segments[0];
  return s.section === null && title !== undefined && title.where === 'the title' && s.start >= title.start && s.end <= title.end;
}

const EXAMPLES = ['Model card', 'System card', 'System description', 'Technical documentation', 'Modellkarte', 'fiche du modèle', 'tarjeta del modelo', 'modelkaart', 'href /model-card'];

const WHAT = 'link to a model card, system card, system description or technical documentation';

/** The outcomes of this control. */
export const outcomes = {
  /** A visible link names the document (by its text or its href); it is not followed. */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'Documentation linked (not followed)', link),
  /** The page is itself a model card or system description: its title or h1 says so. */
  isDocument: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'The page is itself model/system documentation', hit),
  /** The document is named in text but nothing links to it ("available on request"). */
  mentionedNotLinked: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'fail', 'Documentation mentioned but not linked', hit),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** The page discloses no AI system of its own, so no document describes one. */
  undisclosed: (): Outcome => lookedFor(`No ${WHAT}: the page discloses no AI system of its own and documents none`, EXAMPLES),
  /** Nothing found in a page whose content is in the static HTML. */
  notLinked: (): Outcome => lookedFor(`No ${WHAT} found in visible links`, EXAMPLES),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.model-card-or-system-description',
  branch: 'ai-governance',
  framework: 'Measure',
  requirement: 'Page links to a model card, system card, system description, or technical documentation.',
  // Warning: documentation may be published elsewhere (a developer portal, on request); its
  // absence from this page is a gap to review, not proof of missing documentation.
  severity: 'warning',
  evaluate(page) {
    const corpus = corpusOf(page);
    const d = discourseOf(page);
    if (ownSystemOf(d) === undefined) return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.undisclosed();
    const f = foundOf(d);
    if (f !== undefined && 'link' in f) return outcomes.linked(corpus, f.link);
    if (f !== undefined && 'self' in f) return outcomes.isDocument(corpus, f.self);
    if (f !== undefined && 'mention' in f) return outcomes.mentionedNotLinked(corpus, f.mention);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notLinked();
  },
};
