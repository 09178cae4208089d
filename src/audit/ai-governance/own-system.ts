// Whose AI: the page-level gate every documentation control passes through. The seven controls
// after the disclosure document an AI (or automated-decision) system the site itself deploys or
// offers, so they pass only on a page that has one. The gate is there to keep pages that merely
// discuss AI (news, opinion, explainers about the AI Act, someone else's system) failing every
// control; it is not there to make the disclosure sentence a precondition of the rest.
//
// So the page has a system of its own when (`ownSystemOf`):
//
// - it discloses one (`disclosureOf`: the site speaking of AI it uses, not reporting on it); or,
//   on a page that is not editorial (no byline, genre label or article metadata), when the
//   disclosure sentence was missed or is worded in a way the lexicon does not know, when the
//   page itself documents one. That is evidence no page about someone else's AI gives in the
//   site's own name:
//   - a link on the site's own host to the system's documentation, named as such: a model card,
//     system card or AI fact sheet ("Modellkarte", "fiche modèle", "scheda del modello"), or
//     documentation whose name names AI, a model or an algorithm ("Description détaillée du
//     traitement algorithmique (PDF)");
//   - a link on the site's own host to a governance artifact whose name names AI, a model or an
//     algorithm ("Informe de auditoría algorítmica 2024", "Bias-audit AcceptIQ");
//   - a training statement about a model ("Das Modell wurde mit 85.000 Bewerbungen trainiert",
//     "The classifier was trained on 40,000 labelled photos"): only machine learning is trained
//     on data.
//   None of them counts in a negated clause or in a sentence (or section) that reports another
//   party's words ("Lumio says", "selon le fabricant").
//
// A missed disclosure then costs one control (the disclosure itself), not eight. On a page
// opened by documentation rather than a disclosure sentence, the page's main content is read as
// about that system, as on a page whose title names AI (`Discourse.documentsSystem`).
import type { Link } from '../page.ts';
import { disclosureOf, isReported, type Disclosure } from './ai-disclosure-notice.ts';
import { containsWord, linkSentence, type Discourse } from './discourse.ts';
import type { Hit, Target } from './evidence.ts';
import { systemDocumentLink } from './model-card-or-system-description.ts';
import { systemArtifactLink } from './model-governance-artifacts.ts';
import { learnAliases } from './system-aliases.ts';
import { modelTrainingStatement } from './training-data-provenance.ts';

export type OwnSystem =
  | { kind: 'disclosed'; disclosure: Disclosure }
  | { kind: 'documented'; what: string; target: Target }
  | { kind: 'trained'; what: string; hit: Hit };

const memo = new WeakMap<Discourse, OwnSystem | null>();

/** How the page shows an AI system of its own, memoised per discourse; undefined when it shows none. */
export function ownSystemOf(d: Discourse): OwnSystem | undefined {
  let found = memo.get(d);
  if (found === undefined) {
    found = find(d) ?? null;
    memo.set(d, found);
    if (found !== null && found.kind !== 'disclosed') d.documentsSystem = true;
    if (found !== null && found.kind === 'disclosed') learnSystemAliases(d, found.disclosure);
  }
  return found ?? undefined;
}

/**
 * The nouns the page then uses for the system (system-aliases.ts); a title or h1 that names one
 * ("Il coach in app") makes the page about the system, as a title naming AI does.
 */
function learnSystemAliases(d: Discourse, disclosure: Disclosure): void {
  d.systemAliases = learnAliases(d, disclosure.sentence);
  if (d.pageAboutAi || d.systemAliases.length === 0) return;
  const title = d.corpus.segments[0]?.where === 'the title' ? d.corpus.lower.slice(d.corpus.segments[0].start, d.corpus.segments[0].end) : '';
  const h1 = d.sections.find((s) => s.level === 1)?.heading?.lower ?? '';
  d.pageAboutAi = d.systemAliases.some((alias) => containsWord(title, alias) || containsWord(h1, alias));
}

function find(d: Discourse): OwnSystem | undefined {
  const disclosure = disclosureOf(d);
  if (disclosure !== undefined) return { kind: 'disclosed', disclosure };
  // On news, reviews and opinion the AI discussed is someone else's: only the site's own voice
  // (a disclosure) counts there.
  if (d.editorial) return undefined;
  const document = systemDocumentLink(d);
  if (document !== undefined) return { kind: 'documented', what: 'a link to its documentation', target: document };
  const artifact = systemArtifactLink(d);
  if (artifact !== undefined) return { kind: 'documented', what: 'a link to a governance artifact about it', target: artifact };
  const training = modelTrainingStatement(d);
  if (training !== undefined) return { kind: 'trained', what: 'a statement of what its model was trained on', hit: training };
  return undefined;
}

/** The registrable part of a host, roughly: its last two labels, or three under a two-letter country code's short second level ("co.uk", "com.br"). */
function siteOf(host: string): string {
  const labels = host.toLowerCase().split('.');
  const n = labels.length >= 3 && labels.at(-1)!.length === 2 && labels.at(-2)!.length <= 3 ? 3 : 2;
  return labels.slice(-n).join('.');
}

/** A link to the page's own site (its host or a sibling host of the same domain): a document the site publishes, not someone else's. */
export function onOwnSite(d: Discourse, link: Link): boolean {
  if (link.url === null || (link.url.protocol !== 'https:' && link.url.protocol !== 'http:')) return false;
  return siteOf(link.url.hostname) === siteOf(d.corpus.page.url.hostname);
}

/** A link whose sentence (or section) is negated or reports another party's words does not document the site's own system. */
export function reportedLink(d: Discourse, link: Link): boolean {
  const s = linkSentence(d, link);
  return s !== undefined && isReported(d, s);
}
