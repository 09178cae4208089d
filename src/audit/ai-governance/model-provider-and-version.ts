// ai-governance.model-provider-and-version (Govern): visible text or a named documentation link
// identifies both the model provider and a concrete model/version.
//
// Like every documentation control it gates on the page's own AI disclosure (`disclosureOf`): a
// page that only reports on AI, or whose AI wording is hidden or negated, fails. On such a page,
// in one visible sentence (or, for a named model, a sentence of the same section that names it
// again), it looks for a concrete model and who made it:
//
// - a known model family (providers.ts: "GPT-4o", "Claude 3.5 Sonnet", "Llama 3.1 70B") with a
//   listed provider in the same sentence, or its own provider anywhere visible or linked;
// - a model named as a pattern: a capitalised name with a version within a few words
//   ("TalentMatch version 3.2", "Kestrel Risk Score v5.3", "Aurora-2, versión 2024.10",
//   "FootprintSeg release 2024-11"), a lower-case model id ending in its version ("forge-coder-2.1"),
//   a model noun with a version ("Cohere's model, version 2.1"), or a version word alone in a
//   section about the model ("Over het model … In gebruik is versie 2.3"), and a developer: a listed provider, a "developed (in-house) by <Company>" phrase in
//   any of the seven languages ("entwickelt von", "développé par", "desarrollado por",
//   "sviluppato da", "ontwikkeld door", "desenvolvido pela"), or a preposition before a company
//   with a legal suffix ("van MedLogic B.V.", "by Radiant Imaging Ltd", "der Datenwerk GmbH");
//   the developer may be named in another sentence of the section that names the model again;
// - a visible link to the provider's domain whose path names a known model (a system card).
//
// Provider alone ("powered by OpenAI", "een taalmodel van OpenAI"), model alone ("the Quill-2
// language model", "Orion-7B v2, a third-party model") and "a large language model (release
// 2024-11)" fail, saying which half is missing. Metas and JSON-LD do not count (no visitor sees
// them).
import type { Control, Outcome } from '../control.ts';
import { truncate, type Page } from '../page.ts';
import { RECORD_LEVEL, discourseOf, hitsIn, isAiSection, isAiSentence, isNegated, mentionsAi, recordGroupOf, recordsOf, type Discourse, type RecordGroup, type Section, type Sentence } from './discourse.ts';
import { ownSystemOf } from './own-system.ts';
import { EVIDENCE_MAX, corpusOf, linked, locationAt, lookedFor, outcome, partlyFound, quotedText, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { REPORTING, findAll, firstMatch, lexeme, type Lexeme } from './lexicon.ts';
import { MODEL_FAMILIES, PROVIDERS, providerOfHost, type ModelFamily, type Provider } from './providers.ts';

const PROVIDER_NAMES = lexeme({ exact: PROVIDERS.map((p) => p.pattern) });
const MODELS = lexeme({ lower: MODEL_FAMILIES.map((f) => f.pattern) });

/** Anchored per-entry regexes, to tell which provider or family a hit is. */
const PROVIDER_RES = PROVIDERS.map((p) => [p, new RegExp(`^(?:${p.pattern})$`, 'u')] as const);
const FAMILY_RES = MODEL_FAMILIES.map((f) => [f, new RegExp(`^(?:${f.pattern})$`, 'u')] as const);
/** Model ids inside link hrefs (lower-case, any separators). */
const MODEL_IN_HREF = new RegExp(`(?<![a-z0-9])(?:${MODEL_FAMILIES.map((f) => f.pattern).join('|')})(?![a-z0-9])`, 'u');

/**
 * A version: a version word with a number ("version 3.2", "versión 2024.10", "in der Version
 * 3.4", "versie 2.3", "release 2024-11", "rilascio 1.4"), "v5.3", or a dotted number ("2.4",
 * "5.2.1") that is not a quantity ("2.1 million", "1.2 MB", "3.5%").
 */
const VERSION = lexeme({
  lower: [
    String.raw`(?:version|versión|versione|versie|versão|versao|release|rilascio|ver\.) ?v?\d+(?:[.-]\d+){0,3}`,
    String.raw`v\d+(?:\.\d+){0,3}`,
    String.raw`\d+\.\d+(?:\.\d+){0,2}(?! ?(?:percent|per cent|prozent|pour ?cent|por ?ciento|per ?cento|procent|por ?cento|million|millions|billion|milliarden?|millionen|milliards?|millones|milioni|miljoen|milhões|mio|mrd|mb|gb|kb|tb|km|kg|mm|cm|m|s|ms|x|eur|usd|gbp)(?![\p{L}\d])|[%°€£$])`,
  ],
});

/** A version given by a version word ("versie 2.3", "release 2024-11", "v5"), not a bare dotted number. */
const VERSION_WORD = /^(?:version|versión|versione|versie|versão|versao|release|rilascio|ver\.|v\d)/u;

const modelSections = new WeakMap<Section, boolean>();

/** A section about a model: its heading or one of its sentences has a model noun ("Over het model", "The model"). */
function namesModel(section: Section): boolean {
  let found = modelSections.get(section);
  if (found === undefined) {
    found = [section.heading, ...section.sentences].some((s) => s !== null && findAll(MODEL_NOUN, s.text, s.lower).length > 0);
    modelSections.set(section, found);
  }
  return found;
}

/** A model noun, which stands for the name in "the model, version 2.1" and makes a sentence about a model. */
const MODEL_NOUN = lexeme({
  lower: [String.raw`models?|modell\p{L}*|modèles?|modelos?|modell[oi]|modellen|engine|motor|moteur|motore|algorithm\p{L}*|algoritm\p{L}*|classifier|klassifikator|classificateur|clasificador|classificatore|classificador`],
});

/**
 * Who made it: a development verb, up to three words ("in-house", "trained and operated",
 * "internamente"), then "by" in the page's languages. The company follows (see `companyAt`).
 */
const DEVELOPED_BY = lexeme({
  lower: [
    String.raw`(?:developed|built|designed|trained|supplied|provided|manufactured|maintained|operated|engineered|licensed|published|offered|sold|delivered)(?:,? (?:\p{L}+|in-house)){0,4}? (?:by|from)`,
    String.raw`(?:entwickelt|hergestellt|gebaut|bereitgestellt|geliefert|trainiert|betrieben|angeboten|lizenziert|programmiert)(?: \p{L}+){0,3}? (?:von|vom|durch)`,
    String.raw`(?:développé|conçu|fabriqué|fourni|entraîné|édité|proposé|commercialisé|exploité)(?:e|s|es)?(?: \p{L}+){0,3}? (?:par|chez)`,
    String.raw`(?:desarrollad|diseñad|fabricad|suministrad|proporcionad|entrenad|ofrecid|construid|comercializad)[oa]s?(?: \p{L}+){0,3}? por`,
    String.raw`(?:sviluppat|progettat|fornit|addestrat|costruit|commercializzat)[oaie](?: \p{L}+){0,3}? (?:da|dal|dalla|dall['’]|dai|dalle)`,
    String.raw`(?:ontwikkeld|gebouwd|geleverd|getraind|ontworpen|aangeboden)(?: \p{L}+){0,3}? (?:door|bij)`,
    String.raw`(?:desenvolvid|fabricad|fornecid|treinad|projetad|construíd|concebid)[oa]s?(?: \p{L}+){0,3}? (?:por|pela|pelo|pelos|pelas)`,
    String.raw`(?:hersteller|anbieter|entwickler|fabricant|fournisseur|éditeur|fabricante|proveedor|desarrollador|produttore|fornitore|sviluppatore|leverancier|fabrikant|ontwikkelaar|fornecedor|desenvolvedor|manufacturer|developer|vendor|supplier|provider)(?: is| ist| est| es| è| é)?:?`,
  ],
});

/**
 * A preposition before a company ("van MedLogic B.V.", "from Proctorly Inc."): counts only with a
 * legal suffix, a listed provider, or a name ending in a trade word ("van Lumenda Robotics").
 */
const OF_COMPANY = lexeme({ lower: [String.raw`by|from|von|vom|der|van|de|du|des|di|da|del|della|door|par|por|pela|pelo|of`] });

/** A company's legal form, ending its name: the mark of a developer in any of the languages. */
const LEGAL_SUFFIX = /^(?:Ltd|Limited|Inc|LLC|L\.L\.C|PLC|plc|LLP|GmbH|gGmbH|AG|SE|KG|KGaA|UG|SAS|SASU|SARL|SA|S\.A|S\.A\.S|SL|SLU|S\.L|S\.L\.U|S\.p\.A|SpA|S\.r\.l|Srl|s\.r\.l|BV|B\.V|NV|N\.V|Lda|Ltda|Pty|Oy|AB|ApS|A\/S|AS|ASA|Corp|Corporation|Co|S\.C\.A|Sàrl|eG|e\.V|Labs?)\.?$/u;

/** The last word of many companies' names: with a name before it, it marks a company as a legal form does. */
const TRADE_WORD = /^(?:Robotics|Technologies|Technology|Tecnologia|Tecnología|Technologie|Analytics|Software|Systems|Sistemas|Systemen|Solutions|Soluciones|Labs|Laboratories|Digital|Data|Intelligence|Informatics|Health|Medical|Imaging|Vision|Dynamics|Computing)$/u;

/** Capitalised words that are no model's name: sentence openers, months, licences and standards, document parts. */
const NOT_A_NAME = new Set(
  (
    'The This That These Our We It Its Your You Their A An In On At For With From By Of And Or Model Models Version Release Current ' +
    'Der Die Das Den Dem Des Ein Eine Unser Unsere Wir Sie Es Im Am Mit Von Modell Version ' +
    'Le La Les Un Une Notre Nos Nous Il Elle Ce Cette En Au Aux Du De Des Modèle ' +
    'El Los Las Uno Nuestro Nuestra Nosotros Es Modelo Versión ' +
    'Lo Gli Nostro Nostra Noi Modello Versione Usiamo ' +
    'Het Een Onze Wij We Versie ' +
    'O Os As Um Uma Nosso Nossa Nós Versão Atual ' +
    'January February March April May June July August September October November December ' +
    'Januar Februar März Juni Juli Oktober Dezember Janvier Février Mars Avril Mai Juin Juillet Août Septembre Octobre Novembre Décembre ' +
    'Enero Febrero Marzo Abril Mayo Junio Julio Agosto Septiembre Octubre Noviembre Diciembre Gennaio Febbraio Aprile Maggio Giugno Luglio Settembre Ottobre Dicembre ' +
    'Januari Februari Maart Mei Augustus Janeiro Fevereiro Março Maio Junho Julho Setembro Outubro Novembro Dezembro ' +
    'CC BY SA NC ND GPL LGPL MIT BSD Apache ISO IEC EN DIN WCAG GDPR DSGVO RGPD UKCA CE NHS Class Klasse Classe Section Article Artikel Art Step Phase Level Stage Tier Figure Table Chapter Page Windows Android iOS macOS Linux HTTP HTTPS TLS IPv Bluetooth USB Wi-Fi Python Node Java PHP'
  ).split(' '),
);

/** A capitalised name word ("TalentMatch", "ClauseLens-LM", "Lex-IT", "CXR", "Aurora-2"), quotes stripped. */
const NAME_WORD = /^\p{Lu}[\p{L}\d]*(?:[-.·][\p{L}\d]+)*$/u;
/** A name word whose last part is its version ("Aurora-2", "Quill-2"). */
const VERSIONED_NAME = /^\p{Lu}[\p{L}\d]*(?:-[\p{L}\d]+)*-\d+(?:\.\d+)?$/u;
/** Words that may sit between a name and its version: "DermaScope AI in der Version 3.4", "LeafScan model v3.4". */
const FILLER = /^(?:model|modell|modèle|modelo|modello|engine|system|in|der|die|the|de|del|du|la|le|il|el|em|na|no|ai|ki|ia|\d{1,3}|\(|,)$/iu;
/** A model id written in lower case, its last parts a version: "forge-coder-2.1", "kolibri-7b-v1.4". */
const MODEL_ID = /^[a-z][a-z\d]{2,}(?:-[a-z\d]+)*-v?\d+(?:\.\d+)+$/u;
const NAME_MAX_WORDS = 3;
const FILLER_MAX_WORDS = 3;
/** Characters after "by" searched for the company. */
const COMPANY_REACH = 90;
/** Nouns that say the name after them is a company's ("l'éditeur", "la empresa", "des Herstellers", "the company"). */
const COMPANY_NOUN = /^(?:l['’])?(?:company|firm|startup|start-up|vendor|supplier|manufacturer|developer|unternehmen|firma|hersteller\p{L}*|anbieter\p{L}*|entwickler\p{L}*|entreprise|société|éditeur|fabricant|fournisseur|start-up|empresa|compañía|sociedad|fabricante|proveedor|desarrolladora|azienda|società|ditta|produttore|fornitore|bedrijf|onderneming|leverancier|fabrikant|ontwikkelaar|editora|fornecedor|desenvolvedora)$/u;
/** Lower-case words skipped before a company's name ("la société française", "el equipo de datos de"). */
const COMPANY_LEAD_MAX = 5;
/** Lower-case words allowed before a name that has neither a legal suffix nor a listed provider ("the Swiftline data team"). */
const BARE_NAME_LEAD_MAX = 2;

interface Candidate {
  /** The model's name with its version (or the model noun and version), as corpus offsets. */
  model: Hit;
  /** The name's first word, to find the sentence naming its developer; '' for a model noun. */
  head: string;
  sentence: Sentence;
}

interface Identified {
  model: Hit;
  provider: string;
  /** The developer phrase, when it is not the model's own sentence. */
  via?: Hit;
  /** The model as the evidence names it, when it is not the text of `model` (a record's name and version fields). */
  name?: string;
}

interface Finding {
  identified?: Identified;
  doc?: { target: Target; provider: Provider; model: string };
  model?: Hit;
  provider?: Hit;
}

const findings = new WeakMap<Discourse, Finding>();

/**
 * What the page names, memoised. On a page without a disclosure of its own (`full` false) only
 * the known families and providers are looked for, for the evidence: nothing there can pass, and
 * the name pattern is the costly part.
 */
function findingOf(d: Discourse, full: boolean): Finding {
  let found = findings.get(d);
  if (found === undefined) {
    found = find(d, full);
    findings.set(d, found);
  }
  return found;
}

/** The sentences a visitor reads (visible text, the title, link names), reported ones left out on editorial pages. */
function readable(d: Discourse): Sentence[] {
  return d.sentences.filter((s) => !(d.editorial && findAll(REPORTING, s.text, s.lower).length > 0));
}

function find(d: Discourse, full: boolean): Finding {
  const corpus = d.corpus;
  const sentences = readable(d);
  const readableSet = new Set(sentences);
  let firstModel: Hit | undefined;
  let firstProvider: Hit | undefined;
  const affirmed = (s: Sentence, hit: Hit): boolean => !isNegated(d, s, hit.start, hit.end);
  const providersIn = (s: Sentence): Hit[] => hitsIn(s, PROVIDER_NAMES).filter((hit) => affirmed(s, hit));
  // Without a disclosure only the known names are looked for: one pass over the page says whether there are any.
  if (!full && firstMatch(MODELS, corpus.text, corpus.lower) === undefined && firstMatch(PROVIDER_NAMES, corpus.text, corpus.lower) === undefined) return {};
  let visible: Set<string> | undefined;
  const visibleProviders = (): Set<string> => {
    visible ??= new Set(sentences.flatMap((s) => providersIn(s).map((hit) => providerName(corpus, hit) ?? '')));
    return visible;
  };
  const linkedProviders = new Set(corpus.links.flatMap((link) => (link.url === null ? [] : [providerOfHost(link.url.hostname)?.name ?? ''])));

  for (const s of sentences) {
    firstProvider ??= providersIn(s)[0];
    // 1. A known model family, with a provider in the sentence, or its own provider on the page.
    for (const model of hitsIn(s, MODELS).filter((hit) => affirmed(s, hit))) {
      firstModel ??= model;
      const here = providersIn(s)[0];
      if (here !== undefined) return { identified: { model, provider: providerName(corpus, here) ?? '' } };
      const family = familyOf(corpus, model);
      if (family !== undefined && (visibleProviders().has(family.provider) || linkedProviders.has(family.provider))) {
        return { identified: { model, provider: family.provider } };
      }
    }
    // 2. A model named as a pattern, with its developer.
    if (!full) continue;
    for (const candidate of candidatesIn(d, s)) {
      firstModel ??= candidate.model;
      const developer = developerOf(d, candidate, readableSet);
      if (developer !== undefined) return { identified: { model: candidate.model, provider: developer.name, via: developer.via } };
    }
  }
  // 3. A record whose fields name the model, its version and its provider ("Modell | KreditKompass",
  // "Modellversion | 5.1", "Anbieter | Nordlicht Scoring Systems GmbH").
  if (full) {
    for (const record of recordsOf(d)) {
      const found = fromRecord(d, record, readableSet);
      if (found !== undefined) return { identified: found };
    }
  }
  // 4. A visible link to a provider's domain whose path names a known model (a system card).
  for (const link of full ? corpus.links : []) {
    if (link.url === null) continue;
    const provider = providerOfHost(link.url.hostname);
    if (provider === undefined) continue;
    const match = MODEL_IN_HREF.exec(`${link.url.pathname}${link.url.search}`.toLowerCase());
    const target = corpus.targets.find((t) => t.element === link.element);
    if (match !== null && target !== undefined) return { doc: { target, provider, model: match[0] } };
  }
  return { model: firstModel, provider: firstProvider };
}

/** Keys of a record's fields, in the seven languages: the model's name, its version, its maker. */
const VERSION_KEY = /(?:version|versión|versione|versie|versão|release|rilascio)/iu;
const MODEL_KEY = /(?:^|[\s-])(?:(?:ai|ki|ia)[ -])?(?:model|modell|modèle|modelo|modello|software|logiciel|system|système|sistema|systeem|product|produkt|produit|producto|prodotto|produto|technology|technologie|tecnología|tecnologia)(?:name|naam)?(?:$|[\s:-])|^(?:\p{L}+)?(?:modell|model|modelo|modello)$/iu;
const PROVIDER_KEY = /(?:provider|vendor|supplier|developer|manufacturer|partner|made by|developed by|designed by|built by|anbieter|hersteller|entwickler|lieferant|entwickelt von|fournisseur|fabricant|fabbricante|éditeur|développé par|conçu par|concepteur|conceptrice|proveedor|fabricante|desarrollador|desarrollado por|diseñado por|fornitore|produttore|sviluppatore|sviluppato da|progettato da|leverancier|fabrikant|ontwikkelaar|ontwikkeld door|fornecedor|desenvolvedor|desenvolvido por)/iu;
/** A bare "Name" key: the model's name where the record also gives its version and maker ("Naam | NevusTriage", "Nombre | RiesgoClaro", "Bezeichnung | VisioClaim Motor"). */
const NAME_KEY = /^(?:name|naam|nom|nombre|nome|bezeichnung|désignation|denominación|denominazione|benaming|designação)$/iu;
/** Keys that name a recognition capability, which only a trained model has ("Spracherkennung", "Number plate recognition"). */
const RECOGNITION_KEY = /erkennung|recognition|reconnaissance|reconocimiento|riconoscimento|herkenning|reconhecimento/iu;
/** Keys that name a product rather than a model or software. */
const PRODUCT_KEY = /product|produkt|produit|producto|prodotto|produto/iu;
/** A version in a field's value: "5.1 (seit Oktober 2024 im Einsatz)", "v3.1", "2.3.1". */
const VERSION_VALUE = /(?<![\p{L}\d])v?\d+(?:\.\d+)+(?![\p{L}\d])|(?<![\p{L}\d])v\d+(?![\p{L}\d])/u;
/** A maker's name at the start of a field's value, up to a comma or bracket: "Nexalia Analytics (Nantes)", "Visiora SAS, Rennes". */
const MAKER_VALUE = /^\p{Lu}[\p{L}\d&.'’-]*(?: (?:\p{Lu}[\p{L}\d&.'’-]*|&|and|und|et|y|e|en|of|de|di|da|do|del|della|van|von|der))*/u;

/**
 * A record naming a model with its version and its maker: a model field whose value is a name
 * (with the version in it, or in a version field), and a provider field whose value opens on a
 * name. A "Product" key counts only in a section about AI (not merely on a page about it): a
 * data sheet has a model and a maker too.
 */
function fromRecord(d: Discourse, record: RecordGroup, readableSet: ReadonlySet<Sentence>): Identified | undefined {
  const fields = record.fields.filter((f) => readableSet.has(f.sentence));
  const version = fields.find((f) => VERSION_KEY.test(f.key) && VERSION_VALUE.test(f.value) && !PROVIDER_KEY.test(f.key));
  const named = (f: (typeof fields)[number]) => isName(f.value.split(/\s/u)[0]!);
  const model =
    fields.find((f) => f !== version && MODEL_KEY.test(f.key) && !VERSION_KEY.test(f.key) && !PROVIDER_KEY.test(f.key) && named(f)) ??
    fields.find((f) => f !== version && version !== undefined && NAME_KEY.test(f.key.trim()) && named(f)) ??
    // A version field holding the name too ("Versie | Jobmatch 3.0").
    (version !== undefined && named(version) ? version : undefined) ??
    // Any other key whose value is a name with its version ("Spracherkennung | Hörwerk ASR 3.1",
    // "Number plate recognition | PlateSense v4.1", "Werkzeug | Raumwerk Generativ" + "Version |
    // 2.4"): gated below like a product key, since a data sheet has such fields too.
    fields.find((f) => f !== version && !VERSION_KEY.test(f.key) && !PROVIDER_KEY.test(f.key) && named(f) && (version !== undefined || VERSION_VALUE.test(f.value)));
  const maker = fields.find((f) => f !== model && f !== version && PROVIDER_KEY.test(f.key) && MAKER_VALUE.test(f.value));
  if (model === undefined || maker === undefined) return undefined;
  if (version === undefined && !VERSION_VALUE.test(model.value)) return undefined;
  // A product's data sheet has a model, version and maker too: a product key needs the record to
  // sit in an AI-related section, or the product's name to come back where the page documents its
  // AI system ("Descrizione del sistema PulmoScan CAD 2.3 (PDF)").
  const otherKey = model !== version && !MODEL_KEY.test(model.key) && !NAME_KEY.test(model.key.trim());
  if ((PRODUCT_KEY.test(model.key) || (otherKey && !RECOGNITION_KEY.test(model.key))) && (model.sentence.section === null || !isAiSection(d, model.sentence.section)) && !documentedAsSystem(d, model)) return undefined;
  if (isNegated(d, model.sentence, model.start, model.end)) return undefined;
  const name = MAKER_VALUE.exec(maker.value)![0].replace(/[.,;:]+$/u, '');
  const modelName = model.value.split(/[(,;]/u)[0]!.trim();
  const label = version === undefined || version === model ? modelName : `${modelName}, version ${VERSION_VALUE.exec(version.value)![0]}`;
  return { model: { start: model.start, end: Math.min(model.end, model.start + 60) }, provider: name, via: { start: maker.start, end: maker.start + name.length }, name: label };
}

/** A system description or model card, by name, in the seven languages. */
const SYSTEM_DOC =
  /descri(?:zione|ption|pción|ção) (?:du |del |do |of the |des |de la )?(?:sistema|système|system)|system ?(?:description|beschreibung|beschrijving|card)|systeembeschrijving|model ?card|modell ?karte|scheda (?:del )?modello|fiche (?:du )?modèle|modelkaart|cartão do modelo|tarjeta del modelo/u;

/** The record's product name appears in another sentence that names AI or documents the system. */
function documentedAsSystem(d: Discourse, model: RecordGroup['fields'][number]): boolean {
  const name = model.value.split(/[(,;]/u)[0]!.trim().split(/\s/u)[0]!.toLowerCase();
  if (name.length < 3) return false;
  return d.sentences.some((x) => x !== model.sentence && x.lower.includes(name) && (SYSTEM_DOC.test(x.lower) || mentionsAi(d, x)));
}

function providerName(corpus: Corpus, hit: Hit): string | undefined {
  const text = corpus.text.slice(hit.start, hit.end);
  return PROVIDER_RES.find(([, re]) => re.test(text))?.[0].name;
}

function familyOf(corpus: Corpus, hit: Hit): ModelFamily | undefined {
  const text = corpus.lower.slice(hit.start, hit.end);
  return FAMILY_RES.find(([, re]) => re.test(text))?.[0];
}

/** Words of a sentence with their corpus offsets. */
function wordsOf(s: Sentence): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  const re = /[^\s]+/gu;
  for (let m = re.exec(s.text); m !== null; m = re.exec(s.text)) out.push({ word: m[0], start: s.start + m.index, end: s.start + m.index + m[0].length });
  return out;
}

/** A word without the quotes and punctuation around it. */
function bare(word: string): string {
  return word.replace(/^[("“„«'‘»]+|[)"”»«'’,:;.+]+$/gu, '');
}

function isName(word: string): boolean {
  const w = bare(word);
  return w.length >= 2 && NAME_WORD.test(w) && !NOT_A_NAME.has(w);
}

/**
 * Named models with a version in an affirmed, AI-related sentence: a name of up to three
 * capitalised words, then (past a few filler words) a version; or a name whose last part is its
 * version ("Aurora-2"); or a model noun with a version ("the model, version 2.1").
 */
function candidatesIn(d: Discourse, s: Sentence): Candidate[] {
  const out: Candidate[] = [];
  const modelSection = s.section !== null && namesModel(s.section);
  const aboutModel = isAiSentence(d, s) || findAll(MODEL_NOUN, s.text, s.lower).length > 0 || modelSection;
  if (!aboutModel) return out;
  const words = wordsOf(s);
  const seen = new Set<number>();
  for (const version of hitsIn(s, VERSION)) {
    if (isNegated(d, s, version.start, version.end)) continue;
    const at = words.findIndex((w) => w.end > version.start);
    // The version closes a lower-case model id: the id is the name.
    const id = at >= 0 ? bare(words[at]!.word) : '';
    if (MODEL_ID.test(id)) {
      const start = words[at]!.start + words[at]!.word.indexOf(id);
      if (!out.some((c) => c.model.start === start)) out.push({ model: { start, end: start + id.length }, head: id, sentence: s });
      continue;
    }
    let i = at - 1;
    // The version may sit inside the name's last word ("Aurora-2," is one word): start before it.
    let fillers = 0;
    while (i >= 0 && fillers < FILLER_MAX_WORDS && !isName(words[i]!.word) && FILLER.test(bare(words[i]!.word) || words[i]!.word)) {
      i--;
      fillers++;
    }
    let first = i;
    // A name stops at a word ending a phrase: "AI-software: TriageWijzer versie 5.2".
    while (first >= 0 && i - first < NAME_MAX_WORDS && isName(words[first]!.word) && (first === i || !/[,:;]$/u.test(words[first]!.word))) first--;
    first++;
    if (first <= i && !seen.has(first)) {
      seen.add(first);
      out.push({ model: { start: words[first]!.start, end: version.end }, head: bare(words[first]!.word), sentence: s });
      continue;
    }
    // No name: a model noun right before the version ("Cohere's model, version 2.1").
    const before = s.lower.slice(Math.max(0, version.start - s.start - 24), version.start - s.start);
    const noun = findAll(MODEL_NOUN, before, before).at(-1);
    if (noun !== undefined && /^[\s,:(]*$/u.test(before.slice(noun.end))) {
      out.push({ model: { start: version.start - before.length + noun.start, end: version.end }, head: '', sentence: s });
    } else if (modelSection && VERSION_WORD.test(s.lower.slice(version.start - s.start, version.end - s.start))) {
      // A version word alone in a section about the model ("Over het model … In gebruik is versie 2.3"): the model is the section's.
      out.push({ model: version, head: '', sentence: s });
    }
  }
  for (const w of words) {
    const word = bare(w.word);
    if (VERSIONED_NAME.test(word) && !NOT_A_NAME.has(word.split('-')[0]!) && !out.some((c) => c.model.start <= w.start && c.model.end >= w.start)) {
      const start = w.start + Math.max(0, w.word.indexOf(word));
      if (!isNegated(d, s, start, start + word.length)) out.push({ model: { start, end: start + word.length }, head: word, sentence: s });
    }
  }
  return out;
}

/**
 * The developer of a candidate: in its own sentence, or in a sentence of the same section that
 * names the model again ("GridCast 2.3 … GridCast is designed, trained and operated by Voltaire
 * Energy Analytics Ltd").
 */
function developerOf(d: Discourse, c: Candidate, readableSet: ReadonlySet<Sentence>): { name: string; via?: Hit } | undefined {
  const own = developerIn(d, c.sentence, c.head);
  if (own !== undefined) return { name: own.name };
  if (c.sentence.section === null) return undefined;
  const section = c.sentence.section;
  // The sentence naming the developer names the model again: by its name, or, for an unnamed
  // model ("the model, version 2.1"), by a model noun ("Het model is ontwikkeld door …").
  const namesIt = (s: Sentence) => (c.head === '' ? findAll(MODEL_NOUN, s.text, s.lower).length > 0 : hasWord(s.text, c.head));
  // A field of the same section ("Desenvolvedor: GeoSinapse Tecnologia Ltda." under "Modelo:
  // TerraNet v3.0") describes the same model, as a record's fields do.
  const fields = isField(d, c.sentence);
  for (const s of [section.heading, ...section.sentences]) {
    if (s === null || s === c.sentence || !readableSet.has(s) || !(namesIt(s) || (fields && isField(d, s)))) continue;
    const found = developerIn(d, s, c.head);
    if (found !== undefined) return { name: found.name, via: found.hit };
  }
  // A table or description list describes one thing: its "Developer | <Company>" field names the
  // maker of the model in its "Model | <name> <version>" field.
  const group = recordGroupOf(d.corpus, c.sentence);
  if (group === null) return undefined;
  for (const field of d.sections) {
    if (field.level !== RECORD_LEVEL || field.heading === null || field.sentences.length === 0) continue;
    if (!readableSet.has(field.heading) || recordGroupOf(d.corpus, field.heading) !== group) continue;
    const found = developerIn(d, spanning(d, field.heading, field.sentences.at(-1)!), c.head);
    if (found !== undefined) return { name: found.name, via: found.hit };
  }
  return undefined;
}

/** A field: "Key: value" text, or a list item, table cell or definition. */
function isField(d: Discourse, s: Sentence): boolean {
  const element = d.corpus.page.textBlocks[s.blockIndex]?.element?.name;
  return element === 'li' || element === 'dd' || element === 'td' || /^[^:.]{1,40}: /u.test(s.text);
}

/** One sentence over a key and its value, so "Model provider" and "Voltaic Analytics B.V." read together. */
function spanning(d: Discourse, key: Sentence, last: Sentence): Sentence {
  return { ...key, end: last.end, text: d.corpus.text.slice(key.start, last.end), lower: d.corpus.lower.slice(key.start, last.end), isHeading: false };
}

function hasWord(text: string, word: string): boolean {
  return new RegExp(`(?<![\\p{L}\\d])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\d])`, 'u').test(text);
}

/** A developer in the sentence: a listed provider, a development verb before a company, or a preposition before a company with a legal form. */
function developerIn(d: Discourse, s: Sentence, exclude: string): { name: string; hit: Hit } | undefined {
  const provider = hitsIn(s, PROVIDER_NAMES).find((hit) => !isNegated(d, s, hit.start, hit.end));
  if (provider !== undefined) return { name: providerName(d.corpus, provider) ?? '', hit: provider };
  for (const [cue, bareNameCounts] of [[DEVELOPED_BY, true], [OF_COMPANY, false]] as [Lexeme, boolean][]) {
    for (const hit of hitsIn(s, cue)) {
      if (isNegated(d, s, hit.start, hit.end)) continue;
      const company = companyAt(d.corpus, hit.end, s.end, bareNameCounts);
      if (company === undefined) continue;
      const name = d.corpus.text.slice(company.start, company.end);
      // "operated by Correcteur": a bare name that is the model's own is no company ("Proctorly Inc." is).
      if (!company.legal && exclude !== '' && hasWord(name, exclude)) continue;
      return { name, hit: { start: hit.start, end: company.end } };
    }
  }
  return undefined;
}

/**
 * The company named right after `from` (within the sentence): a listed provider, a capitalised
 * name ending in a legal form ("Radiant Imaging Ltd", "Banco Meridional, S.A.", "DataWijs
 * B.V."), or, after a development verb, a capitalised name alone ("Northwind AI Labs").
 */
function companyAt(corpus: Corpus, from: number, to: number, bareNameCounts: boolean): (Hit & { legal: boolean }) | undefined {
  const text = corpus.text.slice(from, Math.min(to, from + COMPANY_REACH));
  const re = /[^\s]+/gu;
  let lead = 0;
  let nameStart = -1;
  let nameEnd = -1;
  let nameWords = 0;
  // "de l'entreprise montréalaise Laurentide IA", "de la empresa Nodo Cognitivo": a company noun
  // before the name says it is one, legal form or not.
  let companyNoun = false;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const word = m[0];
    const clean = word.replace(/^[("“„«'‘]+|(?:['’]s)?[)"”»'’,:;]*$/gu, '');
    if (nameStart < 0) {
      if (/^\p{Lu}/u.test(clean)) {
        const provider = PROVIDER_RES.find(([p]) => new RegExp(`^(?:${p.pattern})`, 'u').test(text.slice(m!.index)));
        if (provider !== undefined) return { start: from + m.index, end: from + m.index + provider[0].name.length, legal: true };
        if (NOT_A_NAME.has(clean) && !/^(?:De|Da|Di)$/u.test(clean)) return undefined;
        nameStart = m.index;
        nameEnd = m.index + clean.length;
        nameWords = 1;
        if (/[,;:]$/u.test(word)) break;
        continue;
      }
      // "by the model Correcteur": a model, not a company.
      if (++lead > COMPANY_LEAD_MAX || findAll(MODEL_NOUN, clean.toLowerCase(), clean.toLowerCase()).length > 0) return undefined;
      if (COMPANY_NOUN.test(clean.toLowerCase())) companyNoun = true;
      continue;
    }
    if (LEGAL_SUFFIX.test(clean.replace(/\.$/u, '')) || LEGAL_SUFFIX.test(clean)) {
      return { start: from + nameStart, end: from + m.index + clean.length, legal: true };
    }
    if (TRADE_WORD.test(clean.replace(/\.$/u, ''))) return { start: from + nameStart, end: from + m.index + clean.replace(/\.$/u, '').length, legal: true };
    // "van het Leuvense bedrijf Taalkern": a capitalised adjective, then the company noun; the name follows.
    if (COMPANY_NOUN.test(clean.toLowerCase())) {
      companyNoun = true;
      nameStart = -1;
      continue;
    }
    if (/^\p{Lu}/u.test(clean) || /^(?:&|and|und|et|y|e|en|of|de|da|di|do|dos|das|del|della)$/u.test(clean)) {
      if (++nameWords > 6) break;
      if (/^\p{Lu}/u.test(clean)) nameEnd = m.index + clean.length;
      if (/[;:)]$/u.test(word)) break;
      continue;
    }
    break;
  }
  if (nameStart < 0) return undefined;
  // A legal form after a comma: "Banco Meridional, S.A."
  const tail = text.slice(nameEnd).match(/^, ?(\S+)/u);
  if (tail !== null && LEGAL_SUFFIX.test(tail[1]!.replace(/[,;:]$/u, '').replace(/\.$/u, ''))) return { start: from + nameStart, end: from + nameEnd + tail[0].length, legal: true };
  if (companyNoun) return { start: from + nameStart, end: from + nameEnd, legal: true };
  return bareNameCounts && lead <= BARE_NAME_LEAD_MAX ? { start: from + nameStart, end: from + nameEnd, legal: false } : undefined;
}

const MODEL_EXAMPLES = [
  ...MODEL_FAMILIES.filter((f) => ['GPT', 'Claude', 'Gemini', 'Llama', 'Mistral'].includes(f.name)).map((f) => f.example),
  'TalentMatch version 3.2, developed by Brightpath Ltd',
  'model version 2.1',
];
const PROVIDER_EXAMPLES = [...PROVIDERS.slice(0, 4).map((p) => p.name), 'developed by <Company> Ltd', 'entwickelt von <Firma> GmbH', 'développé par <Société> SAS'];

/** The outcomes of this control. */
export const outcomes = {
  /** A concrete model and its provider are both named; the evidence quotes the model's sentence. */
  identified: (corpus: Corpus, { model, provider, name }: Identified): Outcome => {
    const what = `Provider ${truncate(provider, 40)} and model "${truncate(name ?? corpus.text.slice(model.start, model.end), 40)}"`;
    return outcome('pass', quotedText(corpus, what, model, EVIDENCE_MAX), locationAt(corpus, model));
  },
  /** A visible link to the provider's domain whose href names the model (not followed). */
  linked: (corpus: Corpus, link: Target, provider: Provider, model: string): Outcome =>
    linked(corpus, 'pass', `Provider ${provider.name} and model "${model}" in a documentation link`, link),
  /** A provider is named but no concrete model or version. */
  versionMissing: (corpus: Corpus, provider: Hit): Outcome =>
    partlyFound(corpus, 'Provider named but no concrete model or version', MODEL_EXAMPLES, provider),
  /** A model is named but not its provider. */
  providerMissing: (corpus: Corpus, model: Hit): Outcome => partlyFound(corpus, 'Model named but not its provider', PROVIDER_EXAMPLES, model),
  /** A model and provider are named, but the page discloses no AI system of its own (it reports on AI, or says nothing of using it). */
  undisclosed: (corpus: Corpus, model: Hit): Outcome =>
    outcome('fail', quotedText(corpus, "Model and provider named, but no AI system of the site's own is disclosed or documented on the page; found", model, EVIDENCE_MAX), locationAt(corpus, model)),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered('model provider or version', page),
  /** Neither. */
  notFound: (): Outcome => lookedFor('No model provider or concrete model/version found', [...PROVIDER_EXAMPLES.slice(0, 3), ...MODEL_EXAMPLES.slice(0, 4)]),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.model-provider-and-version',
  branch: 'ai-governance',
  framework: 'Govern',
  requirement: 'Visible text or a named documentation link identifies both the model provider and a concrete model/version.',
  // Warning: naming the model is a transparency practice (AI RMF Govern) rather than a duty on
  // every page; a missing name is a gap to review.
  severity: 'warning',
  evaluate(page) {
    const corpus = corpusOf(page);
    const d = discourseOf(page);
    // The model documents an AI system the site discloses; on any other page it identifies nothing of the site's.
    const disclosed = ownSystemOf(d) !== undefined;
    const { identified, doc, model, provider } = findingOf(d, disclosed);
    if (identified !== undefined) return disclosed ? outcomes.identified(corpus, identified) : outcomes.undisclosed(corpus, identified.model);
    if (doc !== undefined && disclosed) return outcomes.linked(corpus, doc.target, doc.provider, doc.model);
    if (model !== undefined) return outcomes.providerMissing(corpus, model);
    if (provider !== undefined) return outcomes.versionMissing(corpus, provider);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notFound();
  },
};
