// ai-governance.training-data-categories-and-sources (Map / Measure): the page discloses both
// training-data categories and a data-source or provenance statement.
//
// Read on the training statements of training-data-provenance (`trainingDataOf`): for an AI
// system the page discloses, a training statement ("trained on", "learned from", "wurde mit …
// trainiert", "se entrenó con") or a training heading ("Training data", "Dati di
// addestramento"), and its context (the statement and the few sentences after it, or the whole
// section under the heading). Both halves must be stated in one such context:
//
// - a category, the kind of content: "aerial photos", "call recordings", "job adverts",
//   "Lebensläufe", "copies d'élèves", "lecturas de sensores" (the object of the training verb,
//   a "consists of" object or a list item, once quantities and generic words such as "data"
//   or "historical" are set aside);
// - a source, where it came from: "licensed from a publisher", "donated by volunteers",
//   "collected on 240 partner farms", "stammen aus", "issues de notre plateforme",
//   "cedidas por el Instituto Geográfico Nacional", "messi a disposizione dal Consorzio".
//
// "trained on data obtained from HM Land Registry" names a source but no category; "trained on
// job adverts and anonymised CVs" a category but no source; each fails and the evidence says
// which half is missing. Decision inputs ("your credit file") and negated statements
// ("transcripts are not used to train the model") are no training statements.
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { discourseOf } from './discourse.ts';
import { EVIDENCE_MAX, corpusOf, locationAt, lookedFor, outcome, partlyFound, quotedText, scriptRendered, type Corpus, type Hit } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { TRAINING_EXAMPLES, trainingDataOf } from './training-data-provenance.ts';

const CATEGORY_EXAMPLES = ['trained on <kind of content>', 'aerial photos', 'call recordings', 'job adverts', 'Lebensläufe', "copies d'élèves"];
const SOURCE_EXAMPLES = ['licensed from', 'donated by', 'collected on', 'from our own', 'stammen aus', 'issues de', 'cedidos por', 'messi a disposizione da'];

const WHAT = 'training-data categories and sources';

/** The outcomes of this control. */
export const outcomes = {
  /** Both halves found in one training context; the evidence quotes each. */
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
    partlyFound(corpus, 'Training-data categories found but no data-source or provenance statement', SOURCE_EXAMPLES, category),
  /** A source is stated but no categories of data next to it. */
  categoriesMissing: (corpus: Corpus, source: Hit): Outcome =>
    partlyFound(corpus, 'Training-data source found but no data categories', CATEGORY_EXAMPLES, source),
  /** Training data is mentioned, but neither categories nor sources around it. */
  bothMissing: (corpus: Corpus, statement: Hit): Outcome =>
    partlyFound(corpus, 'Training data mentioned but neither data categories nor sources', [...CATEGORY_EXAMPLES.slice(0, 2), ...SOURCE_EXAMPLES.slice(0, 2)], statement),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** No training-data statement at all. */
  notDisclosed: (): Outcome => lookedFor('No training-data statement found, so no categories or sources', TRAINING_EXAMPLES),
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
    const { statements, both } = trainingDataOf(discourseOf(page));
    if (both !== undefined) return outcomes.disclosed(corpus, both.category!, both.source!);
    const category = statements.find((s) => s.category !== undefined)?.category;
    if (category !== undefined) return outcomes.sourcesMissing(corpus, category);
    const source = statements.find((s) => s.source !== undefined)?.source;
    if (source !== undefined) return outcomes.categoriesMissing(corpus, source);
    const statement = statements[0];
    if (statement !== undefined) return outcomes.bothMissing(corpus, statement.hit);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notDisclosed();
  },
};
