// ai-governance.model-card-or-system-description (Measure): the page links to a model card,
// system card, system description, or technical documentation.
//
// Passes on a visible link whose name or href names such a document, or on such a URL in JSON-LD
// or a meta (the document itself is never followed), or when the page is itself one (its title
// or an h1 says so). A document only mentioned in text is not linked: that fails, quoting the
// mention.
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { corpusOf, linked, notFound, placeOf, quoted, scriptRendered, wordRegex, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, H, findPhrase, vocabulary } from './vocabulary.ts';

/** Names of the documents, as link text or in text (lower case). */
const NAMES = [
  String.raw`(?:model|system|ai)${H}cards?|system descriptions?|(?:technical|system|model) documentation|ai${H}fact${H}sheets?|model fact${H}sheets?|transparency notes?`,
  String.raw`(?:modell|system)${H}karten?|systembeschreibung\p{L}*|technische[n]? dokumentation|modell${H}dokumentation`,
  String.raw`(?:fiche|carte)s? (?:du |de |d${A})?(?:modèle|système)|description (?:technique|du système|du modèle)|documentation (?:technique|du système|du modèle)`,
  String.raw`(?:tarjeta|ficha)s? (?:del |de |de la )?(?:modelo|sistema)|descripción (?:técnica|del sistema|del modelo)|documentación (?:técnica|del sistema|del modelo)`,
];

export const DOCUMENT_NAMES = vocabulary({
  lower: NAMES,
  examples: ['Model card', 'System card', 'System description', 'Technical documentation', 'Modellkarte', 'fiche du modèle', 'tarjeta del modelo', 'href /model-card'],
});

/** The same documents as URL path words. */
const DOCUMENT_HREF = /model[-_]?cards?|system[-_]?cards?|system[-_]?description|technical[-_]?documentation|tech[-_]docs|transparency[-_]notes?|modellkarte|ai[-_]?factsheets?/;

const LINK_NAME = wordRegex(NAMES);

/** A visible link (or a JSON-LD / meta URL) naming a model card or system documentation, by name or href. */
function documentationLink(corpus: Corpus): Target | undefined {
  return corpus.targets.find((target) => LINK_NAME.test(target.text.toLowerCase()) || DOCUMENT_HREF.test(target.lower));
}

const WHAT = 'link to a model card, system card, system description or technical documentation';

/** The outcomes of this control. */
export const outcomes = {
  /** A visible link names the document (by its text or its href); it is not followed. */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'Documentation linked (not followed)', link),
  /** The page is itself a model card or system description: its title or h1 says so. */
  isDocument: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'The page is itself model/system documentation', hit),
  /** The document is named in text but nothing links to it. */
  mentionedNotLinked: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'fail', 'Documentation mentioned but not linked', hit),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** Nothing found in a page whose content is in the static HTML. */
  notLinked: (): Outcome => notFound(WHAT, DOCUMENT_NAMES, 'visible links, JSON-LD or meta'),
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
    const link = documentationLink(corpus);
    if (link !== undefined) return outcomes.linked(corpus, link);
    const mention = findPhrase(corpus, DOCUMENT_NAMES);
    if (mention !== undefined) {
      const self = isItselfDocumentation(corpus, mention);
      return self !== undefined ? outcomes.isDocument(corpus, self) : outcomes.mentionedNotLinked(corpus, mention);
    }
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notLinked();
  },
};

/** A document name in the title or in an h1 (searching on from the first mention): the page is the documentation. */
function isItselfDocumentation(corpus: Corpus, first: Hit): Hit | undefined {
  const inTitleOrH1 = (hit: Hit): boolean => {
    const place = placeOf(corpus, hit.start);
    return place.where === 'the title' || place.element?.name === 'h1';
  };
  return inTitleOrH1(first) ? first : findPhrase(corpus, DOCUMENT_NAMES, inTitleOrH1, first.end);
}
