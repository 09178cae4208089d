// One multilingual lexicon (EN, DE, FR, ES, IT, NL, PT) for the AI-governance controls: the words
// that name AI, negate a clause, and the cues each control looks for. Each entry is a `Lexeme`,
// compiled once: lower-case sources run on the lower-cased text, `exact` ones (acronyms such as
// AI / KI / IA) on the original, both wrapped in word boundaries so "ai" never matches inside
// "maintain", "via" or "Kiosk".
//
// Rules for sources: bounded repetition only (`{0,3}`, never `.*`), no nested unbounded
// quantifiers, every alternative ends on a whole word or an explicit stem (`\p{L}*`).

export interface Lexeme {
  lower: RegExp | null;
  exact: RegExp | null;
}

/** Word characters for boundaries: letters of any script and digits. */
const WORD_START = String.raw`(?<![\p{L}\p{N}])`;
const WORD_END = String.raw`(?![\p{L}\p{N}])`;

function compile(sources: readonly string[] | undefined): RegExp | null {
  if (sources === undefined || sources.length === 0) return null;
  return new RegExp(`${WORD_START}(?:${sources.join('|')})${WORD_END}`, 'gu');
}

export function lexeme(spec: { lower?: readonly string[]; exact?: readonly string[] }): Lexeme {
  return { lower: compile(spec.lower), exact: compile(spec.exact) };
}

export interface Span {
  start: number;
  end: number;
}

/** Bound on matches per lexeme and text, so a pathological sentence stays linear. */
const MAX_MATCHES = 100;

/** Every match of the lexeme in `text` (lower-case patterns on `lower`, same length), by position. */
export function findAll(lexeme: Lexeme, text: string, lower: string): Span[] {
  const out: Span[] = [];
  for (const [re, haystack] of [[lexeme.lower, lower], [lexeme.exact, text]] as const) {
    if (re === null) continue;
    re.lastIndex = 0;
    for (let count = 0, m = re.exec(haystack); m !== null && count < MAX_MATCHES; count++, m = re.exec(haystack)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      out.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

export function firstMatch(lexeme: Lexeme, text: string, lower: string): Span | undefined {
  return findAll(lexeme, text, lower)[0];
}

/** An optional hyphen or space: "AI-generated", "AI generated". */
export const H = '[ \\-\u2010\u2011]?';
/** An apostrophe, straight or typographic ("l'IA", "l’IA"). */
export const A = "['\u2019]";

/**
 * Words that name AI or an automated-decision system. "AI", "KI", "IA" count only in capitals;
 * "model" and "algorithm" alone do not (car models, risk models, "the bsdiff algorithm",
 * "search engine algorithms"), but with an AI-ish qualifier or a decision verb they do.
 */
export const AI_TERMS = lexeme({
  lower: [
    // English
    String.raw`artificial intelligence|machine${H}learning|deep${H}learning|neural (?:network|net)s?|generative ai|gen${H}ai`,
    String.raw`(?:large |small )?language models?|llms?|foundation models?|(?:ai|ml|vision|speech|scoring|predictive|machine${H}learning|recommendation|detection|classification|ranking|triage) models?`,
    String.raw`(?:ai|automated|algorithmic)${H}(?:systems?|tools?|assistants?|agents?|software|technolog(?:y|ies)|features?|engines?|decisions?|decision${H}making|processing|screening|scoring)`,
    String.raw`automated (?:individual )?decision${H}making|automatic decision${H}making|chat${H}bots?|virtual (?:assistant|agent)s?|computer vision|natural language processing|speech recognition`,
    String.raw`(?:ai|a\.i\.)${H}(?:generated|created|written|produced|assisted|powered|driven|based|enabled|supported|enhanced)`,
    // An algorithm that decides about people or cases, in any of the languages.
    String.raw`(?:algorithm\p{L}*|algorithmes?|algoritm\p{L}*) (?:\p{L}+ ){0,4}?(?:decid\p{L}*|determin\p{L}*|assess\p{L}*|scor\p{L}*|screen\p{L}*|rank\p{L}*|approv\p{L}*|reject\p{L}*|select\p{L}*|prioriti[sz]\p{L}*|entscheid\p{L}*|bewert\p{L}*|décid\p{L}*|évalu\p{L}*|decid\p{L}*|evalu\p{L}*|valut\p{L}*|beslis\p{L}*|beoordeel\p{L}*|avali\p{L}*)`,
    String.raw`autonomous(?:ly)? (?:\p{L}+ ){0,2}?(?:decid\p{L}*|decisions?|agents?|systems?)|(?:decides?|decided|acts?|operates?) autonomously`,
    // German
    String.raw`künstliche\p{L}* intelligenz|maschinelle\p{L}* lernen\p{L}*|sprachmodell\p{L}*|neuronale\p{L}* netz\p{L}*|ki-\p{L}+|automatisierte\p{L}* (?:einzel)?entscheidung\p{L}*`,
    // French
    String.raw`intelligence artificielle|apprentissage (?:automatique|profond)|modèles? de langage|réseaux? de neurones|décisions? (?:individuelles? )?automatisées?|agent conversationnel|assistant virtuel`,
    // Spanish
    String.raw`inteligencia artificial|aprendizaje (?:automático|profundo)|modelos? de lenguaje|redes? neuronal(?:es)?|decisi(?:ón|ones) automatizadas?|asistente virtual`,
    // Italian
    String.raw`intelligenza artificiale|apprendimento automatico|modell[oi] (?:linguistic[oi]|di linguaggio)|ret[ei] neural[ei]|decision[ei] automatizzat[ae]|assistente virtuale`,
    // Dutch
    String.raw`kunstmatige intelligentie|machinaal leren|taalmodel(?:len)?|neurale netwerken?|geautomatiseerde (?:besluitvorming|beslissingen?)|virtuele assistent`,
    // Portuguese
    String.raw`inteligência artificial|aprendi(?:zagem|zado) (?:automátic[ao]|de máquina)|modelos? de linguagem|redes? neura(?:l|is)|decis(?:ão|ões) automatizadas?|assistente virtual`,
  ],
  exact: [String.raw`AI|A\.I\.|KI|IA|GenAI|LLMs?|GPT-?\d[\w.-]*|ChatGPT|(?:AI|KI|IA)-\p{L}+|\p{L}+-(?:AI|KI|IA)`],
});

/** Negation words by language. "no" is Spanish/Italian/Portuguese and English alike. */
export const NEGATION = lexeme({
  lower: [
    String.raw`not|n${A}t|never|no|none|nothing|neither|nor|without|cannot`,
    String.raw`nicht|kein\p{L}*|nie|niemals|ohne`,
    String.raw`ne|n${A}|pas|jamais|aucun\p{L}*|sans|ni|nul\p{L}*`,
    String.raw`nunca|ningun\p{L}*|ningún|nada|sin|tampoco`,
    String.raw`non|nessun\p{L}*|senza|mai`,
    String.raw`niet|geen|nooit|zonder`,
    String.raw`não|nenhum\p{L}*|sem|jamais`,
  ],
});

/**
 * What looks like a negation but is not one: "not only", French "ne … que" is left alone (rare),
 * and the French pair "ne … pas" counts once, so "ne" followed by "pas" / "jamais" / "aucun"
 * within the clause is discounted here.
 */
export const NOT_A_NEGATION = lexeme({
  lower: [
    String.raw`not only|not just|nicht nur|non seulement|no solo|no sólo|non solo|niet alleen|não só|não apenas`,
    String.raw`(?:ne|n${A}) (?:\p{L}+ ){0,3}?(?:pas|jamais|plus|aucun\p{L}*|rien|personne)`,
  ],
});

/** A capitalised name of one to three words (letters, digits, dots in versions). */
const NAME = String.raw`(?<name>\p{Lu}[\p{L}\d]+(?:[ -][\p{Lu}\d][\p{L}\d.]*){0,2})`;
const ARTICLE_OR_OUR = String.raw`(?:an?|ein\p{L}*|une?|una?|uno|een|um|uma|our|unser\p{L}*|notre|nos|nuestr\p{L}*|il nostro|la nostra|onze|noss\p{L}*)`;

/** "Aria is an AI assistant", "Meet Aria, our …", "Aria (KI-Assistent)": captures the name. */
export const SYSTEM_NAME_DECLARATION = new RegExp(
  [
    String.raw`(?<![\p{L}\d])${NAME} (?:is|ist|est|es|è|é|is) ${ARTICLE_OR_OUR} `,
    String.raw`(?:[Mm]eet|[Ii]ntroducing|[Ll]ernen Sie|[Dd]écouvrez|[Cc]onozca|[Cc]onoce a|[Ss]copri|[Mm]aak kennis met|[Cc]onheça) ${NAME}`,
    String.raw`(?<![\p{L}\d])${NAME}, ${ARTICLE_OR_OUR} `,
    String.raw`(?<![\p{L}\d])${NAME} \((?:AI|KI|IA)\b`,
  ]
    .map((source, i) => source.replaceAll('(?<name>', i === 0 ? '(?<name>' : `(?<name${i}>`))
    .join('|'),
  'gu',
);

/**
 * The site speaking about its own system: a first-person pronoun or possessive in the same
 * sentence as the AI term ("we use", "our AI travel planner", "unser KI-Assistent", "nous
 * utilisons", "nuestro asistente", "il nostro modello", "onze chatbot", "o nosso assistente"),
 * or a verb form that is first person plural on its own (Spanish, Italian, Portuguese). A page
 * that only reports on AI ("the start-up launched an AI companion") has none.
 */
export const DEPLOYER_VOICE = lexeme({
  lower: [
    String.raw`we|we${A}ve|we${A}re|we${A}ll|our|ours|us`,
    String.raw`wir|unser\p{L}*|uns`,
    String.raw`nous|notre|nos`,
    String.raw`nosotros|nuestr\p{L}*|utilizamos|usamos|empleamos|ofrecemos|desarrollamos|recurrimos|aplicamos`,
    String.raw`noi|nostr\p{L}*|utilizziamo|usiamo|impieghiamo|offriamo|sviluppiamo|ci avvaliamo|applichiamo`,
    String.raw`wij|onze|ons`,
    String.raw`nós|noss\p{L}*|empregamos|oferecemos|desenvolvemos|aplicamos`,
  ],
});

/**
 * The service speaking to its user about the system in front of them, or labelling its own
 * content: "you are chatting with", "your application is scored by", "this summary was written
 * with", "dieser Text wurde", "cette réponse", "este contenido", "questa risposta", "deze tekst",
 * "este conteúdo".
 */
export const SERVICE_VOICE = lexeme({
  lower: [
    String.raw`you|your|you${A}re|you${A}ll`,
    String.raw`(?:this|these) (?:\p{L}+ ){0,2}?(?:site|website|page|article|text|story|summary|summaries|image|images|photo|illustration|content|answer|answers|reply|replies|translation|service|app|tool|feature|chat|assistant|recommendations?|results?|estimate|score|decision)`,
    String.raw`(?:sie|ihr|ihre|ihren|ihrem|dein\p{L}*|du)`,
    String.raw`(?:dieser|diese|dieses|diesen) (?:\p{L}+ ){0,2}?(?:text|artikel|beitrag|bild|bilder|inhalt|antwort|zusammenfassung|übersetzung|dienst|service|app|tool|funktion|chat|assistent|empfehlung\p{L}*|ergebnis\p{L}*|entscheidung)`,
    String.raw`vous|votre|vos|tu|ton|ta|tes`,
    String.raw`(?:ce|cet|cette|ces) (?:\p{L}+ ){0,2}?(?:site|article|texte|résumé|image|contenu|réponse|traduction|service|outil|assistant|recommandations?|résultats?|décision)`,
    String.raw`usted|ustedes|tu|tus|su solicitud|sus datos`,
    String.raw`(?:este|esta|estos|estas) (?:\p{L}+ ){0,2}?(?:sitio|artículo|texto|resumen|imagen|contenido|respuesta|traducción|servicio|herramienta|asistente|recomendaci\p{L}+|resultados?|decisión)`,
    String.raw`voi|vostr\p{L}*|tuo|tua|tuoi|lei|la sua richiesta`,
    String.raw`(?:questo|questa|questi|queste) (?:\p{L}+ ){0,2}?(?:sito|articolo|testo|riassunto|immagine|contenuto|risposta|traduzione|servizio|strumento|assistente|raccomandazion\p{L}+|risultat\p{L}+|decisione)`,
    String.raw`u|uw|je|jouw|jij`,
    String.raw`(?:deze|dit) (?:\p{L}+ ){0,2}?(?:site|website|artikel|tekst|samenvatting|afbeelding|inhoud|antwoord|vertaling|dienst|tool|assistent|aanbeveling\p{L}*|resultaten?|beslissing)`,
    String.raw`você|vocês|seu|sua|seus|suas`,
    String.raw`(?:este|esta|estes|estas) (?:\p{L}+ ){0,2}?(?:site|artigo|texto|resumo|imagem|conteúdo|resposta|tradução|serviço|ferramenta|assistente|recomenda\p{L}+|resultados?|decisão)`,
  ],
});
