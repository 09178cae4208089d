// ai-governance.model-governance-artifacts (Measure): the page exposes a governance artifact such
// as a risk assessment, evaluation, monitoring record, or governance policy.
//
// An artifact counts only when exposed, on a page that discloses an AI system of its own
// (`disclosureOf`; the page-level gate replaces the old 250-character distance, so a document
// link in the footer counts):
//
// - a visible link whose name names an artifact ("Independent bias audit report 2024 (PDF)",
//   "Datenschutz-Folgenabschätzung (DSFA)", "rapport d'audit des biais", "informe de
//   evaluación 2025", "Auditrapport rekenkamer", "relatório de avaliação da exatidão") or
//   whose href does ("/ai-policy", "/model-evaluation");
// - an inline publication: a heading naming the artifact with content under it ("AI
//   acceptable-use policy" followed by its rules).
//
// Artifact names are a kind of document (assessment, evaluation, audit, monitoring report, test
// results, hazard log, register) or a policy (policy, principles, charter, guidelines, code of
// conduct), in EN, DE, FR, ES, IT, NL and PT. A policy counts only when its name is about AI
// ("AI governance policy", "Model risk management policy", "beleid voor verantwoord
// AI-gebruik"), since every site has a privacy and a cookie policy. Documents about something
// else ("accessibility audit", "annual report", "flood risk assessment") do not count. A claim
// in prose ("we conduct regular risk assessments", "Realizamos auditorías periódicas") is not an
// artifact, nor is a link to someone else's framework (NIST, ISO, the EU).
import type { Control, Outcome } from '../control.ts';
import type { Link, Page } from '../page.ts';
import { onOwnSite, ownSystemOf, reportedLink } from './own-system.ts';
import { discourseOf, isAiSentence, isNegated, linkSentence, type Discourse, type Section } from './discourse.ts';
import { corpusOf, linked, lookedFor, quoted, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, AI_TERMS, H, findAll, lexeme } from './lexicon.ts';

/** Documents that record an assessment, evaluation, audit or monitoring: artifacts whatever their subject, unless it is plainly not AI. */
const DOCUMENT = lexeme({
  lower: [
    // English
    String.raw`(?:risk|impact|safety|conformity|fairness|bias|equality|equity|privacy|human rights|fundamental rights|ethics|clinical|accuracy|performance|robustness|model|algorithm\p{L}*|ai) (?:assessments?|analys[ie]s|evaluations?|audits?|reviews?|validations?|tests?|testing|reports?)`,
    String.raw`(?:evaluation|assessment|audit|test|testing|validation|monitoring|accuracy|performance|benchmark|red${H}team\p{L}*|incident|transparency|conformity|model risk) (?:reports?|results?|summary|summaries|findings|records?|logs?|dashboards?|statements?)`,
    String.raw`hazard logs?|risk registers?|model inventory|red${H}team(?:ing)? (?:report|results|summary|findings)|post${H}market monitoring(?: plan| report)?|dpias?|aias?|frias?|iso(?:/iec)? 42001(?: certificate| certification)?`,
    // German
    String.raw`(?:bias|fairness|ki|algorithmen|modell)${H}audit\p{L}*|modell${H}?validierung\p{L}*|validierungsstudie\p{L}*|\p{L}*(?:risikobewertung|risikoanalyse|folgenabschätzung|evaluationsbericht|evaluierungsbericht|prüfbericht|auditbericht|überwachungsbericht|monitoringbericht|testbericht|validierungsbericht|transparenzbericht|bewertungsbericht|konformitätsbewertung|grundrechte-folgenabschätzung)\p{L}*|\p{L}*(?:risiko|folgen|datenschutz|grundrechte)(?:beurteilung|bewertung|abschätzung|analyse)\p{L}*|\p{L}*(?:test|prüf|validierungs|evaluations|monitoring|überwachungs)protokoll\p{L}*|klinische\p{L}* (?:bewertung|prüfung|validierung)\p{L}*|dsfa|(?:evaluation|evaluierung|validierung) (?:der|des) (?:\p{L}+ )?(?:maschinell\p{L}*|ki|modell\p{L}*|algorithm\p{L}*|system\p{L}*|vorübersetzung\p{L}*)|(?:bericht|ergebnisse) (?:der|zur|über die) (?:evaluation|evaluierung|prüfung|überprüfung|bewertung|überwachung|kontrolle)\p{L}*`,
    // French
    String.raw`(?:rapport|compte${H}rendu|bilan|étude|résultats?) (?:\p{L}+ ){0,1}?(?:d${A}|de l${A}|de |du |des )?(?:audit|évaluation|surveillance|suivi|contrôle|tests?|validation|conformité|transparence|performance)\p{L}*|(?:analyse|étude|évaluation|contrôle) (?:d${A}équité|d${A}impact|des risques|de risques|de conformité)\p{L}*|(?:audit|évaluation) (?:(?:indépendant|indépendante|externe|annuel|annuelle) )?(?:algorithmique|des biais|d${A}équité|de l${A}ia)|aipd|éfvp|audits? (?:de|des) biais|(?:analyse|étude|évaluation)s? (?:\p{L}+ ){0,3}?(?:vie privée|protection des données)|évaluation clinique`,
    // Spanish
    String.raw`(?:informe|resultados?|memoria|acta) (?:\p{L}+ ){0,1}?(?:de |del |de la )?(?:auditoría|evaluación|supervisión|seguimiento|monitoreo|monitorización|control|pruebas|validación|conformidad|transparencia|impacto|riesgos)\p{L}*|evaluación clínica|(?:evaluación|análisis|estudio|control) (?:de|del) (?:impacto|riesgos?|sesgos?|equidad|conformidad)\p{L}*|auditoría (?:(?:independiente|externa|anual) )?(?:algorítmica|de sesgos|de equidad|del modelo|de la ia|de ia)|eipd`,
    // Italian
    String.raw`(?:rapporto|report|relazione|risultati) (?:\p{L}+ ){0,1}?(?:di |del |della |dell${A})?(?:audit|valutazione|monitoraggio|verifica|controllo|test|validazione|conformità|trasparenza)\p{L}*|(?:valutazione|analisi|controllo|verifica) (?:d${A}impatto|dell${A}impatto|dei rischi|del rischio|di impatto|di conformità|dei bias|di equità)\p{L}*|valutazione clinica|audit (?:(?:indipendente|esterno|annuale) )?(?:algoritmico|(?:dei|sui|sul|sugli) bias|di equità|del modello|dell${A}ia)`,
    // Dutch
    String.raw`\p{L}*(?:modelvalidatie|validatiestudie|prestatiemonitoring|auditrapport|evaluatierapport|toetsingsrapport|monitoringsrapport|monitoringrapport|risicoanalyse|risicobeoordeling|effectbeoordeling|impact assessment|testrapport|validatierapport|transparantierapport|transparantieverslag)\p{L}*|(?:klinische|onafhankelijke|externe|jaarlijkse) (?:evaluatie|validatie|audit)\p{L}*|monitoring na markttoelating|(?:rapport\p{L}*|resultaten|uitkomsten|verslag) (?:\p{L}+ ){0,1}?(?:\p{L}+-)?(?:evaluatie|audit|toetsing|monitoring)\p{L}*|(?:fairness|bias|eerlijkheids|risico|impact|effect|model|algoritme)${H}(?:evaluatie|audit|analyse|toets)\p{L}*|iama|dpia`,
    // Portuguese
    String.raw`(?:relatório|resultados?) (?:\p{L}+ ){0,1}?(?:de |da |do |dos )?(?:auditoria|avaliação|monitoramento|monitorização|controlo|controle|testes?|validação|conformidade|transparência|impacto)\p{L}*|(?:avaliação|análise|auditoria|controlo|controle) (?:de|do|da|dos) (?:impacto|riscos?|viés|vieses|equidade|conformidade|exatidão|desempenho)\p{L}*|avaliação clínica|auditoria (?:(?:independente|externa|anual) )?(?:algorítmica|de viés|de vieses|do modelo|da ia)|ripd`,
  ],
  exact: [String.raw`DPIA|DSFA|AIPD|EIPD|RIPD|IAMA|FRIA|AIA`],
});

/**
 * Document names that are as often about something else: a patient's or a product's test results
 * ("Test results", "Testbericht"), a company's performance report, an incident log, an
 * environmental monitoring report. They count only when their name names AI, a model or an
 * algorithm, or the link sits in a sentence or section about the AI system.
 */
const AMBIGUOUS_DOCUMENT = /^(?:(?:test|testing|performance|incident|monitoring)(?: (?:reports?|results?|summary|summaries|records?|logs?|dashboards?))?|testberichte?|testergebnisse|(?:résultats|rapports?) (?:des |de )?(?:tests?|performance|suivi)|(?:resultados|informes?) (?:de (?:las )?)?(?:pruebas|rendimiento|seguimiento)|(?:risultati|rapporto) (?:dei |di )?(?:test|monitoraggio|prestazioni)|test(?:rapport|resultaten)|(?:resultados|relatório) (?:dos |de )?(?:testes|desempenho|monitorização|monitoramento))$/u;

/** Policies and their kin: artifacts only when their name is about AI (every site has a privacy policy). */
const POLICY = lexeme({
  lower: [
    String.raw`polic(?:y|ies)|principles|charter|guidelines?|framework|code of (?:conduct|practice)|standards?|governance|rules|commitments?|playbook`,
    String.raw`\p{L}*richtlinien?|\p{L}*leitlinien?|grundsätze|leitsätze|charta|verhaltenskodex|governance|regeln|policy`,
    String.raw`politiques?|principes|charte|lignes directrices|cadre|code de conduite|gouvernance|règles`,
    String.raw`políticas?|principios|carta|directrices|pautas|marco|código (?:de conducta|ético)|gobernanza|normas`,
    String.raw`politica|politiche|principi|carta|linee guida|quadro|codice (?:di condotta|etico)|governance|regole`,
    String.raw`beleid\p{L}*|principes|handvest|richtlijnen|kader|gedragscode|governance|spelregels`,
    String.raw`políticas?|princípios|carta|diretrizes|quadro|código de conduta|governação|governança|regras`,
  ],
});

/** What makes a policy's name about AI: an AI term, or a model or algorithm ("Model risk management policy"). */
const ABOUT_AI = lexeme({
  lower: [String.raw`models?|modell\p{L}*|modèles?|modelos?|modell[oi]|algorithm\p{L}*|algor[ií]tm\p{L}*|algorithmes?|automated decision\p{L}*|machine${H}learning|(?:geautomatiseerde|automatisierte\p{L}*|automatisée?s?|automatizad[oa]s?|automatizzat[ei]) \p{L}*(?:beslissing|entscheidung|décision|decisi[oó]n|decisão|decisões|decisiones|decisioni)\p{L}*`],
  exact: [String.raw`AI|A\.I\.|KI|IA|GenAI|(?:AI|KI|IA)-\p{L}+|\p{L}+-(?:AI|KI|IA)`],
});

/** Subjects that make a document plainly not about AI, unless its name also names AI. */
const NOT_AI = lexeme({
  lower: [
    String.raw`accessibility|barrierefreiheit|accessibilité|accesibilidad|accessibilità|toegankelijkheid|acessibilidade|annual report|jahresbericht\p{L}*|rapport annuel|rapport d${A}activité|informe anual|memoria anual|relazione annuale|bilancio annuale|jaarverslag|relatório anual(?! de (?:monitoriza|monitora|avalia|auditoria|impacto))|relatório e contas|financial|finanz\p{L}*|financi\p{L}*|tax|steuer\p{L}*|fiscal\p{L}*`,
    String.raw`fire|brand\p{L}*|incendie|incendio|flood|hochwasser|inondation|inundaci\p{L}*|alluvion\p{L}*|overstroming\p{L}*|environment\p{L}*|umwelt\p{L}*|sustainab\p{L}*|nachhaltig\p{L}*|durabilité|sostenib\p{L}*|duurzaam\p{L}*|sustentab\p{L}*|carbon|esg|gender pay|modern slavery|energy performance|cookie\p{L}*|installation|instalación|installazione|instalação|machinery|maschinen\p{L}*|machine safety`,
  ],
});

/** Other parties' frameworks and laws, linked for reference: not the site's own artifact. */
const REFERENCE_HOSTS = ['nist.gov', 'iso.org', 'europa.eu', 'oecd.org', 'oecd.ai', 'unesco.org', 'w3.org', 'wikipedia.org', 'legislation.gov.uk', 'gesetze-im-internet.de', 'legifrance.gouv.fr', 'boe.es', 'normattiva.it', 'wetten.overheid.nl', 'planalto.gov.br'];

/** Artifacts as URL path words of a visible link. */
const ARTIFACT_HREF = /(?:ai|algorithmic|model)[-_]?(?:risk|impact)[-_]?assessment|(?:^|[/_-])dpia(?:[/._-]|$)|model[-_]?(?:evaluation|monitoring|risk[-_]management)|(?:evaluation|audit|monitoring|red[-_]?team(?:ing)?)[-_]report|bias[-_]audit|red[-_]?teaming|ai[-_](?:acceptable[-_]use[-_])?(?:policy|governance|principles|charter)|ki[-_](?:richtlinie|leitlinien)/;

/** Most words a heading may have and still be an artifact's title rather than a sentence or question. */
const HEADING_MAX_WORDS = 12;
/** Sentences under a heading that make it a publication rather than a label. */
const PUBLICATION_MIN_SENTENCES = 2;

/** An artifact name in a text (a link name or a heading): a document, or a policy about AI; not plainly about something else. */
function namesArtifact(text: string, lower: string, systemNames: readonly string[]): Hit | undefined {
  const aboutAi = findAll(ABOUT_AI, text, lower).length > 0 || findAll(AI_TERMS, text, lower).length > 0 || systemNames.some((name) => lower.includes(name));
  if (!aboutAi && findAll(NOT_AI, text, lower).length > 0) return undefined;
  const document = findAll(DOCUMENT, text, lower)[0];
  if (document !== undefined) return document;
  return aboutAi ? findAll(POLICY, text, lower)[0] : undefined;
}

/**
 * For the page-level gate (own-system.ts): a visible link on the site's own host naming an
 * artifact that itself names AI, a model or an algorithm ("Informe de auditoría algorítmica
 * 2024 (PDF)", "Bias-audit AcceptIQ", "AI risk assessment"): an assessment of an AI system the
 * site publishes. Not negated, not in a reported sentence, not a reference framework.
 */
export function systemArtifactLink(d: Discourse): Target | undefined {
  for (const link of d.corpus.links) {
    const lower = link.text.toLowerCase();
    const aboutAi = findAll(ABOUT_AI, link.text, lower).length > 0 || findAll(AI_TERMS, link.text, lower).length > 0;
    if (!aboutAi || findAll(DOCUMENT, link.text, lower).length === 0) continue;
    if (isReference(link) || !onOwnSite(d, link) || negatedLink(d, link) || reportedLink(d, link)) continue;
    const target = d.corpus.targets.find((t) => t.element === link.element);
    if (target !== undefined) return target;
  }
  return undefined;
}

type Exposed = { link: Target } | { heading: Hit };

const exposures = new WeakMap<Discourse, Exposed | null>();

function exposedOf(d: Discourse): Exposed | undefined {
  let found = exposures.get(d);
  if (found === undefined) {
    found = findExposed(d) ?? null;
    exposures.set(d, found);
  }
  return found ?? undefined;
}

function findExposed(d: Discourse): Exposed | undefined {
  const corpus = d.corpus;
  for (const link of corpus.links) {
    if (isReference(link)) continue;
    const lower = link.text.toLowerCase();
    const named = namesArtifact(link.text, lower, d.systemNames);
    const byName = named !== undefined && !negatedLink(d, link) && !(isAmbiguous(lower, named) && !aboutSystem(d, link));
    const byHref = ARTIFACT_HREF.test(link.href.toLowerCase()) && (findAll(NOT_AI, link.text, lower).length === 0);
    if (byName || byHref) {
      const target = corpus.targets.find((t) => t.element === link.element);
      if (target !== undefined) return { link: target };
    }
  }
  for (const section of d.sections) {
    const heading = section.heading;
    if (heading === null || heading.text.endsWith('?') || heading.text.split(' ').length > HEADING_MAX_WORDS) continue;
    const hit = namesArtifact(heading.text, heading.lower, d.systemNames);
    if (hit === undefined || isNegated(d, heading, heading.start + hit.start, heading.start + hit.end)) continue;
    if (contentUnder(d, section) >= PUBLICATION_MIN_SENTENCES) return { heading: { start: heading.start + hit.start, end: heading.start + hit.end } };
  }
  return undefined;
}

/** The artifact name found is all there is of an ambiguous kind ("Test results"). */
function isAmbiguous(lower: string, named: Hit): boolean {
  return AMBIGUOUS_DOCUMENT.test(lower.slice(named.start, named.end)) && findAll(ABOUT_AI, lower, lower).length === 0;
}

/** The link's name names AI, or it sits in a sentence about the AI system (navigation and footers are not). */
function aboutSystem(d: Discourse, link: Link): boolean {
  if (findAll(AI_TERMS, link.text, link.text.toLowerCase()).length > 0) return true;
  const s = linkSentence(d, link);
  return s !== undefined && isAiSentence(d, s);
}

function isReference(link: Link): boolean {
  const host = link.url?.hostname.toLowerCase() ?? '';
  return REFERENCE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

/** The link sits in a negated clause: "we do not publish our AI audit report". */
function negatedLink(d: Discourse, link: Link): boolean {
  const block = d.corpus.page.textBlocks[link.blockIndex];
  if (block === undefined || link.nameFrom !== 'content') return false;
  const at = block.text.indexOf(link.text);
  if (at < 0) return false;
  const start = block.start + at;
  const s = d.sentences.find((x) => x.blockIndex === link.blockIndex && x.start <= start && x.end >= start);
  return s !== undefined && isNegated(d, s, start, start + link.text.length);
}

/** Sentences of the section and of the sections nested under it. */
function contentUnder(d: Discourse, section: Section): number {
  let count = section.sentences.length;
  const at = d.sections.indexOf(section);
  for (let i = at + 1; i < d.sections.length && count < PUBLICATION_MIN_SENTENCES; i++) {
    const next = d.sections[i]!;
    if (!isInside(next, section)) break;
    count += next.sentences.length;
  }
  return count;
}

function isInside(section: Section, ancestor: Section): boolean {
  for (let s: Section | null = section.parent; s !== null; s = s.parent) if (s === ancestor) return true;
  return false;
}

const EXAMPLES = ['link "AI risk assessment (PDF)"', '"Model evaluation report"', '"Bias audit report"', '"AI governance policy"', 'Datenschutz-Folgenabschätzung', "rapport d'audit", 'informe de evaluación', 'a heading "AI acceptable-use policy" with its rules'];

const WHAT = 'AI governance artifact';

/** The outcomes of this control. */
export const outcomes = {
  /** A visible link to an artifact (not followed). */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'Governance artifact linked (not followed)', link),
  /** An artifact published on the page: a heading naming it with content under it. */
  published: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'Governance artifact published on the page (a heading with its content)', hit),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** The page discloses no AI system of its own, so nothing on it governs one. */
  undisclosed: (): Outcome => lookedFor(`No ${WHAT}: the page discloses no AI system of its own and documents none`, EXAMPLES),
  /** Nothing linked or published in a page whose content is in the static HTML (claims in prose do not count). */
  notFound: (): Outcome => lookedFor(`No ${WHAT} linked or published on the page`, EXAMPLES),
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
    const d = discourseOf(page);
    if (ownSystemOf(d) === undefined) return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.undisclosed();
    const exposed = exposedOf(d);
    if (exposed !== undefined) return 'link' in exposed ? outcomes.linked(corpus, exposed.link) : outcomes.published(corpus, exposed.heading);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notFound();
  },
};
