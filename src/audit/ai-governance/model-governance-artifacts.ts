// ai-governance.model-governance-artifacts (Measure): the page exposes a governance artifact such
// as a risk assessment, evaluation, monitoring record, or governance policy.
//
// Passes on a visible link whose name or href names an artifact (not followed), or on an
// artifact named in text: AI-specific names on their own ("AI risk assessment", "red
// teaming", "responsible AI policy", "ISO/IEC 42001", "KI-Richtlinie", "gouvernance de l'IA"),
// generic names ("risk assessment", "transparency report", "monitoring report") only near AI
// vocabulary, so a flood-risk assessment in a news story does not count.
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { corpusOf, linked, notFound, quoted, scriptRendered, wordRegex, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, H, findPhrase, nearAi, vocabulary } from './vocabulary.ts';

const AI_SPECIFIC = [
  // English
  String.raw`(?:ai|algorithmic|algorithm|model|fundamental rights) (?:risk|impact) assessments?|(?:ai|model|algorithmic|bias|fairness|ai safety) (?:audits?|evaluations?|evaluation reports?)`,
  String.raw`model (?:evaluations?|evals?|testing|validation|monitoring|risk management)|red${H}team(?:ing|ed)?|post${H}market monitoring|(?:ai|model|algorithm) (?:monitoring|incident) (?:reports?|records?|logs?|dashboards?)`,
  String.raw`(?:ai|responsible ai|algorithmic|model) (?:governance|policy|policies|principles|standards?|framework|charter|transparency report|risk management)(?: (?:policy|framework|report|board|committee))?|responsible (?:ai|use of ai)`,
  String.raw`ai (?:act )?conformity assessments?|iso/iec 42001|iso 42001|nist ai rmf|ai risk management framework|ai rmf`,
  // German
  String.raw`ki${H}(?:richtlinie|leitlinien|governance|grundsätze|risikobewertung|folgenabschätzung|audit|prüfung|bewertung|ethik)\p{L}*|verantwortungsvolle[nr]? (?:einsatz von )?ki`,
  // French
  String.raw`(?:politique|charte|principes|cadre) (?:d${A}|de l${A}|en matière d${A})(?:ia|intelligence artificielle)|gouvernance (?:de l${A}|d${A})(?:ia|intelligence artificielle)|ia (?:responsable|de confiance)`,
  // Spanish
  String.raw`(?:política|principios|marco|código) (?:de|sobre) (?:la )?(?:ia|inteligencia artificial)|gobernanza de (?:la )?(?:ia|inteligencia artificial)|ia responsable`,
];

const GENERIC = [
  // English
  String.raw`risk (?:assessments?|analys[ie]s|management (?:policy|framework|system))|impact assessments?|conformity assessments?`,
  String.raw`evaluation (?:results|reports?|methodology)|benchmark results|(?:bias|fairness|robustness|accuracy|safety) (?:testing|tests|metrics|evaluations?|results)`,
  String.raw`monitoring (?:reports?|records?|logs?|dashboard|process)|governance (?:policy|policies|framework|board|committee)|audit (?:reports?|results|trail)|transparency reports?`,
  // German
  String.raw`risiko(?:bewertung|analyse|abschätzung|management)\p{L}*|folgenabschätzung\p{L}*|(?:evaluierungs|bewertungs|überwachungs|prüf)(?:bericht|ergebnisse)\p{L}*|transparenzbericht\p{L}*`,
  // French
  String.raw`(?:évaluation|analyse|gestion) des risques|analyse d${A}impact|rapport (?:d${A}évaluation|de surveillance|de transparence|d${A}audit)`,
  // Spanish
  String.raw`(?:evaluación|análisis|gestión) de (?:los )?riesgos|evaluación de impacto|informe de (?:evaluación|supervisión|transparencia|auditoría)`,
];

export const ARTIFACTS = vocabulary({
  lower: AI_SPECIFIC,
  contextual: GENERIC,
  examples: ['AI risk assessment', 'model evaluation', 'red teaming', 'responsible AI policy', 'monitoring report (near AI)', 'KI-Richtlinie', "gouvernance de l'IA", 'evaluación de riesgos'],
});

const AI_SPECIFIC_NAME = wordRegex(AI_SPECIFIC);
const GENERIC_NAME = wordRegex(GENERIC);
/** Artifacts as URL path words of a visible link. */
const ARTIFACT_HREF = /(?:ai|algorithmic)[-_]?(?:risk|impact)[-_]?assessment|responsible[-_]?ai|ai[-_]?(?:policy|principles|governance|charter)|model[-_]?evaluation|red[-_]?team|(?:ai|model)[-_]?monitoring/;

/** A target naming an artifact: AI-specific by name or href, generic by name when the link's text is near AI vocabulary. */
function artifactLink(corpus: Corpus): Target | undefined {
  return corpus.targets.find((target) => {
    const name = target.text.toLowerCase();
    if (AI_SPECIFIC_NAME.test(name) || ARTIFACT_HREF.test(target.lower)) return true;
    if (!GENERIC_NAME.test(name)) return false;
    const block = corpus.page.textBlocks[target.blockIndex];
    return block !== undefined && nearAi(corpus, { start: block.start, end: block.start + block.text.length });
  });
}

const WHAT = 'AI governance artifact (risk assessment, evaluation, monitoring record or governance policy)';

/** The outcomes of this control. */
export const outcomes = {
  /** A visible link to an artifact (not followed). */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'Governance artifact linked (not followed)', link),
  /** An artifact named in text; the evidence quotes it. */
  named: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'Governance artifact', hit),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** Nothing found in a page whose content is in the static HTML. */
  notFound: (): Outcome => notFound(WHAT, ARTIFACTS),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.model-governance-artifacts',
  branch: 'ai-governance',
  framework: 'Measure',
  requirement: 'Page exposes a governance artifact such as a risk assessment, evaluation, monitoring record, or governance policy.',
  // Warning: artifacts are usually published in a trust centre or on request; their absence
  // from this page is a gap to review, not evidence that none exist.
  severity: 'warning',
  evaluate(page) {
    const corpus = corpusOf(page);
    const link = artifactLink(corpus);
    if (link !== undefined) return outcomes.linked(corpus, link);
    const hit = findPhrase(corpus, ARTIFACTS);
    if (hit !== undefined) return outcomes.named(corpus, hit);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notFound();
  },
};
