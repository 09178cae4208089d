// ai-governance.training-data-provenance (Map): the page discloses training-data, dataset-source,
// data-origin, or dataset-provenance information.
//
// Passes on a training-data statement ("trained on publicly available text", "training data",
// "Trainingsdaten", "données d'entraînement", "datos de entrenamiento"), a dataset-provenance
// phrase, or a visible link to such a page. Generic phrases ("data sources", "origin of the
// data") count only near AI vocabulary; "trained on" needs a data-like object, so "cameras
// trained on the crowd" is not training data.
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { corpusOf, linked, targetWithHref, notFound, quoted, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, H, findPhrase, vocabulary } from './vocabulary.ts';

/** What a model can be trained on (the object of "trained on …"). */
const DATA_OBJECT = String.raw`(?:\p{L}+ ){0,4}?(?:data|datasets?|corpus|corpora|texts?|images|photos|code|content|documents|examples|conversations|books|articles|web ?pages|websites|recordings|publicly available|licensed|synthetic)`;

/**
 * Statements about training data or its provenance. Shared with
 * training-data-categories-and-sources, which looks for categories and sources around them.
 */
export const TRAINING_DATA = vocabulary({
  lower: [
    // English
    String.raw`training${H}data(?:${H}?sets?)?|training (?:corpus|corpora|datasets?|sets?|material|examples)`,
    String.raw`(?:pre|fine)?${H}?trained (?:on|with|using|from) ${DATA_OBJECT}`,
    String.raw`data(?:set)? (?:provenance|lineage)|(?:provenance|lineage) of (?:the |our |this )?(?:training )?(?:data|datasets?)|datasheets? for datasets?|data(?:set)?${H}cards?`,
    // German
    String.raw`trainings${H}daten\p{L}*|trainingsdatensatz\p{L}*|(?:vor)?trainiert (?:mit|auf|anhand) (?:\p{L}+ ){0,4}?(?:daten|datensätze\p{L}*|texte\p{L}*|bilder\p{L}*|inhalte\p{L}*)|datenherkunft|herkunft (?:der|unserer) (?:trainings)?daten`,
    // French
    String.raw`données d${A}(?:entraînement|apprentissage)|(?:pré-?)?entraîné(?:e|s|es)? (?:sur|avec|à partir de) (?:\p{L}+ ){0,4}?(?:données|textes|images|contenus|corpus)|(?:provenance|origine) des données`,
    // Spanish
    String.raw`datos de entrenamiento|(?:pre)?entrenad[oa]s? (?:con|en|a partir de|sobre) (?:\p{L}+ ){0,4}?(?:datos|textos|imágenes|contenidos|corpus)|(?:procedencia|origen) de los datos`,
  ],
  contextual: [
    String.raw`data(?:set)? (?:sources?|origins?)|(?:sources?|origins?) of (?:the |our |this )?data(?:sets?)?`,
    String.raw`datenquellen?|herkunft der daten`,
    String.raw`sources? (?:de|des) données`,
    String.raw`fuentes? de (?:los )?datos`,
  ],
  examples: ['training data', 'trained on … data', 'data provenance', 'Trainingsdaten', "données d'entraînement", 'datos de entrenamiento', 'data sources (near AI)'],
});

/** The same subjects as URL path words of a visible link. */
const TRAINING_HREF = /training[-_]?data|data[-_]?provenance|datasheets?[-_]for[-_]datasets|data[-_]?cards?|trainingsdaten/;

const WHAT = 'training-data or data-provenance disclosure';

/** The outcomes of this control. */
export const outcomes = {
  /** A training-data or provenance statement; the evidence quotes it. */
  disclosed: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'Training-data disclosure', hit),
  /** A visible link whose href names training data or provenance (not followed). */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'Training-data page linked (not followed)', link),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** Nothing found in a page whose content is in the static HTML. */
  notDisclosed: (): Outcome => notFound(WHAT, TRAINING_DATA),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.training-data-provenance',
  branch: 'ai-governance',
  framework: 'Map',
  requirement: 'Page discloses training-data, dataset-source, data-origin, or dataset-provenance information.',
  // Warning: provenance is a documentation duty (AI RMF Map, EU AI Act art. 53 summaries) that
  // is often met on a separate page; missing here is a gap to review.
  severity: 'warning',
  evaluate(page) {
    const corpus = corpusOf(page);
    const hit = findPhrase(corpus, TRAINING_DATA);
    if (hit !== undefined) return outcomes.disclosed(corpus, hit);
    const link = targetWithHref(corpus, TRAINING_HREF);
    if (link !== undefined) return outcomes.linked(corpus, link);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notDisclosed();
  },
};
