// Vocabulary shared by several AI-governance controls. Patterns are regular-expression sources
// matched against normalised text (whitespace is single spaces, blocks are separated by '\n',
// so a ' ' in a pattern never crosses a block). Lower-case patterns run on the lower-cased
// text; `exact` ones are case-sensitive (acronyms such as AI / KI / IA). Every vocabulary is
// wrapped in word boundaries by `terms()` (Latin letters and digits; see evidence.ts).
//
// Rules for adding patterns: bounded repetition only (`{0,3}`, never `.*`), no nested
// unbounded quantifiers, and end every alternative on a whole word.
import { findHit, terms, type Corpus, type Hit, type Terms } from './evidence.ts';

/** An optional hyphen or space: "AI-generated", "AI generated", "AIgenerated". */
export const H = '[ \\-\u2010\u2011]?';
/** An apostrophe, straight or typographic ("l'IA", "l’IA"). */
export const A = "['\u2019]";

/**
 * An AI system as the object of a phrase in English ("by AI", "with artificial intelligence",
 * "using a large language model"), lower case.
 */
export const AI_NOUN_EN = String.raw`(?:an? |the )?(?:ai|a\.i\.|genai|gen ai|generative ai|artificial intelligence|machine${H}learning|deep learning|(?:large |small )?language models?|llms?|chatgpt|gpt${H}\d[\w.\-]*|openai|claude|gemini|copilot|(?:ai|automated|algorithmic)${H}(?:systems?|tools?|models?|assistants?|agents?|software|technology)|algorithms?)`;
/** The same in German (dative forms, as after "mit Hilfe", "von", "durch"). */
export const AI_NOUN_DE = String.raw`(?:ki|künstliche[rn]? intelligenz|maschinelle[nm] lernens?|maschinelles lernen|(?:einem |eines )?(?:ki-)?sprachmodell\p{L}*|algorithmen)`;
/** The same in French. */
export const AI_NOUN_FR = String.raw`(?:ia|intelligence artificielle|apprentissage automatique|algorithmes?|(?:grands? )?modèles? de langage|chatgpt|gpt${H}\d[\w.\-]*)`;
/** The same in Spanish. */
export const AI_NOUN_ES = String.raw`(?:ia|inteligencia artificial|aprendizaje automático|algoritmos?|(?:grandes? )?modelos? de lenguaje|chatgpt|gpt${H}\d[\w.\-]*)`;

/**
 * Words that make nearby text about AI: used where a phrase is only AI governance when AI is
 * in view ("risk assessment", "intended use", "appeal the decision"). Bare "model" is not
 * enough (car models, risk models); acronyms are matched case-sensitively.
 */
export const AI_CONTEXT = terms({
  lower: [
    String.raw`artificial intelligence|machine${H}learning|deep learning|neural networks?|algorithm\p{L}*|llms?|(?:language|foundation|ai|ml|generative) models?|chatbots?|generative ai|automated decision\p{L}*|automated processing`,
    String.raw`künstliche\p{L}* intelligenz|maschinelle\p{L}* lernen\p{L}*|sprachmodell\p{L}*|ki-\p{L}+|algorithmen|automatisierte\p{L}* entscheidung\p{L}*`,
    String.raw`intelligence artificielle|apprentissage automatique|modèles? de langage|algorithmes?|décisions? automatisées?|d${A}ia`,
    String.raw`inteligencia artificial|aprendizaje automático|modelos? de lenguaje|algoritmos?|decisi(?:ón|ones) automatizadas?|de ia`,
  ],
  exact: ['AI|A\\.I\\.|KI|IA|GenAI|LLMs?|GPT-?\\d[\\w.-]*|ChatGPT'],
  examples: [],
});

/** Characters either side of a phrase searched for AI context. */
export const AI_CONTEXT_RADIUS = 250;

/** Whether AI vocabulary occurs within `radius` characters of the hit (in the same source text). */
export function nearAi(corpus: Corpus, hit: Hit, radius = AI_CONTEXT_RADIUS): boolean {
  return findHit(corpus, AI_CONTEXT, undefined, Math.max(0, hit.start - radius), Math.min(corpus.text.length, hit.end + radius)) !== undefined;
}

/**
 * A vocabulary split into phrases that are AI governance on their own (`strong`) and phrases
 * that count only with AI vocabulary nearby (`contextual`).
 */
export interface Vocabulary {
  strong: Terms;
  contextual: Terms | null;
  examples: readonly string[];
}

export function vocabulary(spec: {
  lower?: readonly string[];
  exact?: readonly string[];
  contextual?: readonly string[];
  examples: readonly string[];
}): Vocabulary {
  const strong = terms({ lower: spec.lower ?? [], exact: spec.exact ?? [], examples: spec.examples });
  const contextual = spec.contextual === undefined ? null : terms({ lower: spec.contextual, examples: spec.examples });
  return { strong, contextual, examples: spec.examples };
}

/**
 * The first hit of a vocabulary in `[from, to)`: strong phrases anywhere, contextual phrases
 * only near AI vocabulary. `accept` filters further.
 */
export function findPhrase(corpus: Corpus, words: Vocabulary, accept?: (hit: Hit) => boolean, from = 0, to = corpus.text.length): Hit | undefined {
  const strong = findHit(corpus, words.strong, accept, from, to);
  // Contextual phrases need AI vocabulary nearby: on a page without any, skip the pass.
  if (words.contextual === null || findHit(corpus, AI_CONTEXT) === undefined) return strong;
  const contextual = findHit(corpus, words.contextual, (hit) => (accept === undefined || accept(hit)) && nearAi(corpus, hit), from, strong?.start ?? to);
  return contextual ?? strong;
}
