// ai-governance.system-purpose-and-role (Map): visible text or a named documentation link states
// the system purpose, intended use, or model/system role.
//
// Passes on a purpose statement whose subject is an AI system ("the assistant is designed to",
// "we use AI to", "purpose of this AI system", "Zweck des KI-Systems", "l'IA sert à", "la IA se
// utiliza para"), or on purpose headings and link names ("Intended use", "How we use AI") near
// AI vocabulary. A purpose stated for something that is not AI ("this tool is designed to
// compare mortgages") does not count.
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { corpusOf, linked, targetWithHref, notFound, quoted, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, AI_NOUN_EN, H, findPhrase, vocabulary } from './vocabulary.ts';

/** An AI system as the subject of a sentence, in English (its article, if any, is left to the quote's context). */
const AI_SUBJECT_EN = String.raw`(?:ai|a\.i\.|artificial intelligence|(?:ai|virtual|chat|digital) (?:assistant|agent)|ai (?:system|model|tool|feature|chatbot)|chatbot|chat${H}bot|(?:language|ai|machine${H}learning|ml|generative|foundation) model|llm|algorithm)`;

export const PURPOSE = vocabulary({
  lower: [
    // English
    // One alternative per subject keeps the (long) subject from being tried once per predicate.
    String.raw`${AI_SUBJECT_EN}(?: (?:is|are|was|has been) (?:only |solely |primarily )?(?:designed|intended|built|meant|developed|trained|used|deployed|here) (?:to|for|as)| (?:helps?|assists?|can help|will help|lets you|allows you|enables you|supports|answers|summari[sz]es|recommends|suggests|translates|drafts)|${A}s (?:purpose|role|function|goal|task|intended use))`,
    String.raw`(?:purpose|role|function|goal|task|intended use) of (?:the |this |our )?${AI_SUBJECT_EN}`,
    String.raw`(?:system|model|ai) (?:purpose|role)|(?:model|system) card purpose`,
    String.raw`(?:we|this (?:site|website|service|app|page|platform)) (?:uses?|employs?|leverages?) ${AI_NOUN_EN} (?:to|for)`,
    String.raw`how (?:we|this (?:site|website|service|app)|our \p{L}+) uses? ${AI_NOUN_EN}`,
    // German
    String.raw`(?:zweck|einsatzzweck|verwendungszweck|zweckbestimmung|rolle|aufgabe) (?:des|dieses|unseres|der|dieser|unserer) (?:ki-)?(?:systems|modells|assistenten|chatbots|ki|algorithmus)`,
    String.raw`(?:die ki|der (?:ki-)?(?:assistent|chatbot)|das (?:ki-)?(?:system|modell)|künstliche intelligenz)(?: \p{L}+){0,2}? (?:dient|hilft|unterstützt|soll|wird (?:eingesetzt|verwendet|genutzt))`,
    String.raw`(?:nutzen|verwenden|setzen) (?:wir )?(?:\p{L}+ ){0,2}?(?:ki|künstliche intelligenz)(?: ein)?,? um`,
    String.raw`wie wir (?:ki|künstliche intelligenz) (?:nutzen|einsetzen|verwenden)`,
    // French
    String.raw`(?:finalité|objectif|rôle|but|fonction) (?:du |de ce |de cet |de notre |de l${A}|de la )(?:système d${A}ia|modèle d${A}ia|assistant|chatbot|agent conversationnel|ia|intelligence artificielle|algorithme)`,
    String.raw`(?:l${A}ia|l${A}intelligence artificielle|l${A}assistant|le chatbot|l${A}agent conversationnel|(?:le système|le modèle) d${A}(?:ia|intelligence artificielle))(?: \p{L}+){0,2}? (?:est (?:conçue?|destinée?|utilisée?|entraînée?) (?:à|pour)|sert à|a pour (?:but|objectif|rôle)|vise à|permet de|aide à|vous aide)`,
    String.raw`nous (?:utilisons|employons) (?:l${A}|une |de l${A})?(?:ia|intelligence artificielle) (?:pour|afin de)|comment nous utilisons (?:l${A})?(?:ia|intelligence artificielle)`,
    // Spanish
    String.raw`(?:finalidad|propósito|objetivo|función|rol|papel) (?:del |de este |de nuestro |de la )(?:sistema de ia|modelo de ia|asistente|chatbot|agente|ia|inteligencia artificial|algoritmo)`,
    String.raw`(?:la ia|la inteligencia artificial|el asistente|el chatbot|el agente virtual|el (?:sistema|modelo) de (?:ia|inteligencia artificial))(?: \p{L}+){0,2}? (?:está (?:diseñad|pensad|destinad)[oa] (?:a|para)|se (?:utiliza|usa|emplea) para|sirve para|tiene (?:como|por) (?:objetivo|finalidad)|le ayuda a|ayuda a)`,
    String.raw`(?:utilizamos|usamos|empleamos) (?:la |una )?(?:ia|inteligencia artificial) para|cómo (?:usamos|utilizamos) (?:la )?(?:ia|inteligencia artificial)`,
  ],
  contextual: [
    // A generic subject ("the assistant", "this tool") is an AI system only with AI vocabulary nearby.
    String.raw`(?:the|this|our) (?:assistant|bot|agent|model|system|tool|feature) (?:is|are) (?:only |solely |primarily )?(?:designed|intended|built|meant|used|deployed) (?:to|for|as)`,
    String.raw`intended (?:uses?|purposes?|use cases?|users)|out${H}of${H}scope uses?|(?:primary|supported) use cases?|use cases?|limitations (?:and|&) (?:intended )?uses?`,
    String.raw`(?:acts?|serves?|functions?|works?|operates?) as (?:a |an |the |your )?(?:\p{L}+ ){0,2}?(?:assistant|aid|co${H}?pilot|advisor|guide|helper|tool|first point of contact|triage)`,
    String.raw`(?:bestimmungsgemäße|vorgesehene|beabsichtigte)[nr]? (?:verwendung|nutzung|einsatz|zweck)|anwendungsf(?:a|ä)lle?|einsatzzweck`,
    String.raw`(?:utilisation|usage) (?:prévue?|envisagée?|visée?)|cas d${A}(?:usage|utilisation)|finalité`,
    String.raw`uso previsto|casos? de uso|finalidad`,
  ],
  examples: ['the assistant is designed to', 'we use AI to', 'intended use', 'purpose of this AI system', 'Zweck des KI-Systems', "l'IA sert à", 'la IA se utiliza para'],
});

/** The same subjects as URL path words of a visible link. */
const PURPOSE_HREF = /intended[-_]use|system[-_]purpose|how[-_]we[-_]use[-_](?:ai|artificial[-_]intelligence)|use[-_]of[-_]ai/;

const WHAT = 'statement of the system purpose, intended use or role';

/** The outcomes of this control. */
export const outcomes = {
  /** A purpose or role statement about an AI system; the evidence quotes it. */
  stated: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'Purpose/role statement', hit),
  /** A visible link whose href names the purpose or intended use (not followed). */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'Purpose documentation linked (not followed)', link),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** Nothing found in a page whose content is in the static HTML. */
  notStated: (): Outcome => notFound(WHAT, PURPOSE),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.system-purpose-and-role',
  branch: 'ai-governance',
  framework: 'Map',
  requirement: 'Visible text or a named documentation link states the system purpose, intended use, or model/system role.',
  // Warning: purpose is context mapping (AI RMF Map 1.1) that a product page may legitimately
  // leave to linked documentation.
  severity: 'warning',
  evaluate(page) {
    const corpus = corpusOf(page);
    const hit = findPhrase(corpus, PURPOSE);
    if (hit !== undefined) return outcomes.stated(corpus, hit);
    const link = targetWithHref(corpus, PURPOSE_HREF);
    if (link !== undefined) return outcomes.linked(corpus, link);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notStated();
  },
};
