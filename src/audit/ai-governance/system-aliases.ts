// The common nouns a page uses for its own AI system once it has disclosed it: "Il coach è un
// chatbot che funziona con l'intelligenza artificiale" › "il coach"; "Wir setzen ein KI-System
// ein" › "das System"; "El orientador de síntomas es una herramienta de IA" › "el orientador".
//
// Why: a reader who has been told what "the coach" or "the system" is reads every later "the
// coach suggests …" or "ask for an instructor to look at what the coach proposed" as about that
// system, under whatever heading it sits. The sets' first runs missed purposes, reviews and
// training statements in exactly such sentences: they named the system by a noun, not by an AI
// word, under a heading that named neither ("Volete il parere di un istruttore?").
//
// Only a page with a disclosure of its own learns aliases: from the disclosure and, on a page that
// is not editorial, from the other sentences of its content that name AI affirmatively; the
// generic system, model and algorithm nouns of the page's language are aliases too. A sentence
// then refers to the system when it puts a
// determiner before an alias ("the coach", "unser Größenberater", "o sistema"), not when the
// alias is qualified by another noun ("el sistema de reservas").
import type { Discourse, Sentence } from './discourse.ts';
import { hitsIn, isNegated } from './discourse.ts';
import { AI_TERMS, DETERMINER as DET, SYSTEM_NOUNS } from './lexicon.ts';

/** Nouns that name a system of any kind: taken as an alias when they head or stand next to an AI term ("ein KI-System", "un modello di intelligenza artificiale", "an AI tool"). */
const SYSTEM_NOUN = new RegExp(
  String.raw`(?<![\p{L}\d])(${SYSTEM_NOUNS}|app|application|feature|copilot|anwendung|aplicación|applicazione|applicatie|aplicação|aplicativo)(?![\p{L}\d])`,
  'gu',
);

/** Words that never stand for the system: the site, the organisation, people, data. */
const NOT_AN_ALIAS =
  /^(?:site|website|page|web|webseite|seite|sitio|sito|página|pagina|company|firm|business|unternehmen|firma|entreprise|société|empresa|azienda|società|bedrijf|organisatie|team|équipe|equipo|squadra|equipa|equipe|staff|data|daten|données|datos|dati|gegevens|dados|information|informationen|información|informazioni|informatie|informação|service|dienst|servizio|servicio|serviço|customer|kunde|client|cliente|klant|user|nutzer|utilisateur|usuario|utente|gebruiker|utilizador|usuário|city|stadt|ville|ciudad|città|stad|cidade|bank|banque|banco|banca|year|jahr|année|año|anno|jaar|ano|result|ergebnis|résultat|resultado|risultato|resultaat|process|prozess|processus|proceso|processo|proces)$/u;

const COPULA = String.raw`is|are|was|ist|sind|war|est|sont|était|es|son|fue|era|è|sono|é|são|foi|zijn|heißt|heet|se llama|si chiama|s['’]appelle|chama-se`;

/** "<det> noun [noun…] <copula>" at the start of a sentence: the subject the AI term in the predicate describes. */
const SUBJECT_BEFORE_COPULA = new RegExp(String.raw`^(?:${DET}) ((?:[\p{L}-]+ ){0,2}?[\p{L}-]+) (?:${COPULA})(?![\p{L}])`, 'u');

/** Characters between the copula and the AI term that defines its subject. */
const PREDICATE_REACH = 24;

/** An agent between the copula and the AI term: the subject is something the system made ("The forecasts are produced by a machine-learning model"), not the system. */
const AGENT = /(?<![\p{L}])(?:by|von|durch|par|por|pela|pelo|da|dal|dalla|door|with|mit|avec|con|com|met)(?![\p{L}])/u;

const HEAD_FIRST = new Set(['fr', 'es', 'it', 'pt']);

/** The most aliases one page may give its system; more would be noise. */
const MAX_ALIASES = 6;

/** Aliases learned from the page's affirmed AI sentences in its main content (the site's own disclosure included). */
export function learnAliases(d: Discourse, disclosure: Sentence): string[] {
  const aliases = new Set<string>();
  const lang = d.lang;
  const add = (word: string | undefined) => {
    if (word === undefined || aliases.size >= MAX_ALIASES) return;
    const w = word.toLowerCase();
    if (w.length >= 3 && !NOT_AN_ALIAS.test(w) && !d.systemNames.includes(w)) aliases.add(w);
  };
  const sources = d.editorial ? [disclosure] : d.sentences.filter((s) => s === disclosure || (s.section !== null && (s.section.landmark === 'main' || s.section.landmark === 'body')));
  for (const s of sources) {
    const terms = hitsIn(s, AI_TERMS).filter((hit) => !isNegated(d, s, hit.start, hit.end));
    if (terms.length === 0) continue;
    // A system noun inside the AI term or right beside it: "KI-System", "an AI tool", "sistema de inteligencia artificial".
    for (const term of terms) {
      const from = Math.max(0, term.start - s.start - 12);
      const window = s.lower.slice(from, term.end - s.start + 24);
      SYSTEM_NOUN.lastIndex = 0;
      for (let m = SYSTEM_NOUN.exec(window); m !== null; m = SYSTEM_NOUN.exec(window)) add(m[1]);
    }
    // The subject the sentence describes as AI: "Il coach è un chatbot …", "Our virtual assistant is an AI …".
    const subject = SUBJECT_BEFORE_COPULA.exec(s.lower);
    // The AI term must follow the copula closely ("è un chatbot che …", "is an AI assistant"), so
    // the sentence defines the subject as the system rather than saying something else about it.
    const predicate =
      subject === null
        ? undefined
        : terms.find((t) => {
            const between = s.lower.slice(subject[0].length, t.start - s.start);
            return t.start - s.start >= subject[0].length && between.length <= PREDICATE_REACH && !AGENT.test(between);
          });
    if (subject !== null && predicate !== undefined) {
      const words = subject[1]!.split(' ');
      add(HEAD_FIRST.has(lang) ? words[0] : words.at(-1));
    }
  }
  // The generic nouns of a system, model or algorithm stand for the disclosed one too: a page that
  // discloses an AI system says "il sistema" for it, whatever noun its disclosure used ("un algoritmo").
  for (const generic of GENERIC_SYSTEM_NOUNS[lang] ?? []) aliases.add(generic);
  return [...aliases];
}

/** The generic nouns of an automated system, per language. */
const GENERIC_SYSTEM_NOUNS: Readonly<Record<string, readonly string[]>> = {
  en: ['system', 'model', 'algorithm'],
  de: ['system', 'modell', 'algorithmus'],
  fr: ['système', 'modèle', 'algorithme'],
  es: ['sistema', 'modelo', 'algoritmo'],
  it: ['sistema', 'modello', 'algoritmo'],
  nl: ['systeem', 'model', 'algoritme'],
  pt: ['sistema', 'modelo', 'algoritmo'],
};
