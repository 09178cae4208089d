// ai-governance.training-data-categories-and-sources (Map / Measure): the page discloses both
// training-data categories and a data-source or provenance statement.
//
// Both halves are looked for around each training-data statement (the vocabulary of
// training-data-provenance), within WINDOW_BEFORE / WINDOW_AFTER characters, so a
// "Training data" heading followed by a list of categories and a sentence on sources counts,
// while "licensed from" somewhere unrelated on the page does not. One half alone fails and
// the evidence says which half is missing.
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { EVIDENCE_MAX, corpusOf, locationAt, lookedFor, outcome, partlyFound, quotedText, scriptRendered, type Corpus, type Hit } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { TRAINING_DATA } from './training-data-provenance.ts';
import { A, H, findPhrase, vocabulary } from './vocabulary.ts';

/** How far before and after a training-data statement its categories and sources may be stated. */
export const WINDOW_BEFORE = 300;
export const WINDOW_AFTER = 800;
/** Training-data statements examined per page. */
const MAX_STATEMENTS = 20;

/** Kinds of data a model was trained on. */
export const CATEGORIES = vocabulary({
  lower: [
    // English
    String.raw`(?:publicly|openly|freely) (?:available|accessible)(?: \p{L}+){1,2}`,
    String.raw`public(?: web)? (?:data|text|content|sources|web pages|information|images|code|domain \p{L}+)`,
    String.raw`licensed(?: \p{L}+)? (?:data|content|text|images|datasets?|material|works|sources|books|music|photos)`,
    String.raw`(?:proprietary|synthetic|synthetically generated|user${H}(?:submitted|generated|provided|contributed)|customer|third${H}party|open${H}source|crawled|scraped|anonymi[sz]ed|de${H}identified|pseudonymi[sz]ed|personal|copyrighted|human${H}(?:annotated|labell?ed|written)|annotated|labell?ed|internal|partner) (?:data|text|content|images|code|conversations|datasets?|documents|examples|media|photos|prompts|feedback|recordings)`,
    String.raw`(?:categories|types|kinds) of (?:training )?data|(?:data|content) categories`,
    String.raw`training data (?:includes?|included|consists? of|comprises?|contains?|is made up of|covers?|spans?)`,
    // German
    String.raw`öffentlich (?:verfügbare|zugängliche)[nrs]? \p{L}+|lizenzierte[nrs]? \p{L}+|synthetische[nrs]? \p{L}+|(?:nutzer|benutzer|kunden)(?:generierte|eingereichte|daten)\p{L}*|(?:kategorien|arten) (?:von|der) (?:trainings)?daten|datenkategorien|trainingsdaten (?:umfassen|bestehen aus|enthalten|beinhalten)`,
    // French
    String.raw`(?:données|textes|contenus|images) (?:publi(?:ques|quement disponibles)|accessibles au public|sous licence|synthétiques|propriétaires|générés? par (?:les )?utilisateurs)|(?:catégories|types) de données`,
    // Spanish
    String.raw`(?:datos|textos|contenidos?|imágenes) (?:públicos|disponibles públicamente|con licencia|sintéticos|propios|de (?:los )?usuarios|generados? por (?:los )?usuarios)|(?:categorías|tipos) de datos`,
  ],
  examples: ['publicly available text', 'licensed data', 'user-submitted images', 'synthetic data', 'öffentlich verfügbare Texte', 'données sous licence', 'datos públicos'],
});

/** Where the data came from. */
export const SOURCES = vocabulary({
  lower: [
    // English
    String.raw`(?:sourced|obtained|collected|gathered|licensed|acquired|drawn|derived|crawled|scraped|purchased|compiled|downloaded|extracted|donated) (?:directly )?(?:from|through|via)`,
    String.raw`(?:data|dataset) (?:sources?|provenance|origins?|lineage|suppliers?|providers?|partners?)|(?:sources?|provenance|origins?) of (?:the |our |this |all )?(?:training )?(?:data|datasets?)`,
    String.raw`comes? from|provided by|(?:licensing|data|content) (?:agreements?|partnerships?|deals?) with`,
    // Named corpora; public platforms only as "from/on <platform>", so a nav link to GitHub is no source statement.
    String.raw`common crawl|project gutenberg|laion${H}\d*\p{L}*|the pile|imagenet|(?:from|on|of) (?:\p{L}+ ){0,2}?(?:wikipedia|github|reddit|stack overflow|stack exchange|arxiv|pubmed)`,
    // German
    String.raw`(?:stamm|komm)(?:en|t) (?:aus|von)|(?:bezogen|gesammelt|erhoben|lizenziert|erworben) (?:aus|von|bei|über)|datenquellen?|herkunft der (?:trainings)?daten|datenherkunft`,
    // French
    String.raw`(?:provien(?:nent|t)|issu(?:e|s|es)?|(?:collecté|obtenu|acquis|extrait|récupéré)(?:e|s|es)?) (?:auprès|à partir|sur|de|du|des|d${A}\p{L}+)|sources? (?:de|des) données|(?:provenance|origine) des données`,
    // Spanish
    String.raw`provien(?:e|en) de|(?:obtenid|recopilad|recogid|adquirid|extraíd)[oa]s? (?:de|a partir de|en)|fuentes? de (?:los )?datos|(?:procedencia|origen) de los datos`,
  ],
  examples: ['sourced from', 'obtained from', 'data sources', 'licensed from', 'Common Crawl', 'stammen aus', 'proviennent de', 'provienen de'],
});

/** A category and a source found around the same or different training-data statements. */
interface Halves {
  statement: Hit | undefined;
  category: Hit | undefined;
  source: Hit | undefined;
}

function findHalves(corpus: Corpus): Halves {
  const halves: Halves = { statement: undefined, category: undefined, source: undefined };
  let from = 0;
  for (let i = 0; i < MAX_STATEMENTS && (halves.category === undefined || halves.source === undefined); i++) {
    const statement = findPhrase(corpus, TRAINING_DATA, undefined, from);
    if (statement === undefined) break;
    halves.statement ??= statement;
    const windowStart = Math.max(0, statement.start - WINDOW_BEFORE);
    const windowEnd = Math.min(corpus.text.length, statement.end + WINDOW_AFTER);
    halves.category ??= findPhrase(corpus, CATEGORIES, undefined, windowStart, windowEnd);
    halves.source ??= findPhrase(corpus, SOURCES, undefined, windowStart, windowEnd);
    from = statement.end;
  }
  return halves;
}

const WHAT = 'training-data categories and sources';

/** The outcomes of this control. */
export const outcomes = {
  /** Both halves found; the evidence quotes each. */
  disclosed: (corpus: Corpus, category: Hit, source: Hit): Outcome => {
    const half = Math.floor((EVIDENCE_MAX - 3) / 2);
    const first = category.start <= source.start ? category : source;
    return outcome(
      'pass',
      `${quotedText(corpus, 'Categories', category, half)}; ${quotedText(corpus, 'sources', source, half)}`,
      locationAt(corpus, first),
    );
  },
  /** Categories are stated but no source or provenance next to them. */
  sourcesMissing: (corpus: Corpus, category: Hit): Outcome =>
    partlyFound(corpus, 'Training-data categories found but no data-source or provenance statement', SOURCES.examples, category),
  /** A source is stated but no categories of data next to it. */
  categoriesMissing: (corpus: Corpus, source: Hit): Outcome =>
    partlyFound(corpus, 'Training-data source found but no data categories', CATEGORIES.examples, source),
  /** Training data is mentioned, but neither categories nor sources around it. */
  bothMissing: (corpus: Corpus, statement: Hit): Outcome =>
    partlyFound(corpus, 'Training data mentioned but neither data categories nor sources', [...CATEGORIES.examples.slice(0, 2), ...SOURCES.examples.slice(0, 2)], statement),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** No training-data statement at all. */
  notDisclosed: (): Outcome => lookedFor('No training-data statement found, so no categories or sources', TRAINING_DATA.examples),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.training-data-categories-and-sources',
  branch: 'ai-governance',
  framework: 'Map / Measure',
  requirement: 'Page discloses both training-data categories and a data-source or provenance statement.',
  // Warning: a detailed data summary is documentation that commonly lives on a separate page.
  severity: 'warning',
  evaluate(page) {
    const corpus = corpusOf(page);
    const { statement, category, source } = findHalves(corpus);
    if (category !== undefined && source !== undefined) return outcomes.disclosed(corpus, category, source);
    if (category !== undefined) return outcomes.sourcesMissing(corpus, category);
    if (source !== undefined) return outcomes.categoriesMissing(corpus, source);
    if (statement !== undefined) return outcomes.bothMissing(corpus, statement);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notDisclosed();
  },
};
