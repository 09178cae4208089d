// One multilingual lexicon (EN, DE, FR, ES, IT, NL, PT) for the AI-governance controls: the words
// that name AI, negate a clause, and the cues each control looks for. Each entry is a `Lexeme`,
// compiled once: lower-case sources run on the lower-cased text, `exact` ones (acronyms such as
// AI / KI / IA) on the original, both wrapped in word boundaries so "ai" never matches inside
// "maintain", "via" or "Kiosk".
//
// Rules for sources: bounded repetition only (`{0,3}`, never `.*`), no nested unbounded
// quantifiers, every alternative ends on a whole word or an explicit stem (`\p{L}*`).

export interface Lexeme {
  /** One or more regexes: a long word list is split so that no regex passes V8's size limit for optimised code. */
  lower: readonly RegExp[];
  exact: readonly RegExp[];
}

/** Word characters for boundaries: letters of any script and digits. */
const WORD_START = String.raw`(?<![\p{L}\p{N}])`;
/** After an elided article ("dall'", "l'") the next word follows at once: that is a word end too. */
const WORD_END = String.raw`(?:(?<=['’])|(?![\p{L}\p{N}]))`;

/**
 * V8 compiles a regex of more than 20 KB of source to bytecode instead of machine code, which ran
 * AI_TERMS 2.3× slower once it grew past that (21 KB): sources are grouped into regexes of at
 * most this many characters each.
 */
const MAX_SOURCE = 12_000;

function compile(sources: readonly string[] | undefined): RegExp[] {
  if (sources === undefined || sources.length === 0) return [];
  const groups: string[][] = [[]];
  let size = 0;
  for (const source of sources) {
    if (size > 0 && size + source.length > MAX_SOURCE) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1]!.push(source);
    size += source.length + 1;
  }
  return groups.map((group) => new RegExp(`${WORD_START}(?:${group.join('|')})${WORD_END}`, 'gu'));
}

export function lexeme(spec: { lower?: readonly string[]; exact?: readonly string[] }): Lexeme {
  return { lower: compile(spec.lower), exact: compile(spec.exact) };
}

export interface Span {
  start: number;
  end: number;
}

/** Bound on matches per lexeme in one short text (a sentence or clause), so a pathological one stays linear. */
const MAX_MATCHES = 100;

/** Every match of the lexeme in `text` (lower-case patterns on `lower`, same length), by position. */
export function findAll(lexeme: Lexeme, text: string, lower: string, maxMatches = MAX_MATCHES): Span[] {
  const out: Span[] = [];
  for (const [re, haystack] of [...lexeme.lower.map((r) => [r, lower] as const), ...lexeme.exact.map((r) => [r, text] as const)]) {
    re.lastIndex = 0;
    for (let count = 0, m = re.exec(haystack); m !== null && count < maxMatches; count++, m = re.exec(haystack)) {
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

/** Verbs of deciding about or assessing a person's case, in the seven languages: what an automated system does in a disclosure. */
const DECIDES = String.raw`(?:decid\p{L}*|determin\p{L}*|assess\p{L}*|scor\p{L}*|read\p{L}*|rank\p{L}*|sort\p{L}*|approv\p{L}*|reject\p{L}*|select\p{L}*|calculat\p{L}*|evaluat\p{L}*|check\p{L}*|compar\p{L}*|analy[sz]\p{L}*|entscheid\p{L}*|bewert\p{L}*|berechn\p{L}*|erstell\p{L}*|erlässt|erlassen|prüf\p{L}*|liest|gelesen|vergleich\p{L}*|ordnet|sortiert|décid\p{L}*|évalu\p{L}*|calcul\p{L}*|analys\p{L}*|compar\p{L}*|attribu\p{L}*|trie|classe|realiza|calcula\p{L}*|evalúa|valora|puntúa|analiza|compara|ordena|decide|valut\p{L}*|calcol\p{L}*|analizz\p{L}*|confront\p{L}*|ordina|beoordeel\p{L}*|berekent|vergelijkt|selecteert|beslist|avalia|calcula|analisa|decide)`;

/** The stricter kin for an "automatic" system, which may open gates or sort mail: deciding, scoring, approving, rejecting, selecting. */
const DECIDES_STRICT = String.raw`(?:decid\p{L}*|determin\p{L}*|assess\p{L}*|scor\p{L}*|rank\p{L}*|approv\p{L}*|reject\p{L}*|select\p{L}*|evaluat\p{L}*|entscheid\p{L}*|bewert\p{L}*|bewilligt|lehnt|décid\p{L}*|évalu\p{L}*|attribu\p{L}*|evalúa|valora|puntúa|aprueba|rechaza|decide|valut\p{L}*|approva|respinge|beoordeel\p{L}*|beslist|keurt|wijst af|avalia|aprova|recusa|classific\p{L}*|clasific\p{L}*|classeert|klassifizier\p{L}*|(?:di |de )?(?:pre)?selezion\p{L}*|(?:de )?(?:pre)?selecci\p{L}*|(?:de )?(?:pré)?sélection\p{L}*|vorauswahl|screen\p{L}*|gescreend)`;

/**
 * Words that name AI or an automated-decision system. "AI", "KI", "IA" count only in capitals;
 * "model" and "algorithm" alone do not (car models, risk models, "the bsdiff algorithm",
 * "search engine algorithms"), but with an AI-ish qualifier or a decision verb they do.
 */
export const AI_TERMS = lexeme({
  lower: [
    // English
    String.raw`artificial${H}intelligence|machine${H}learning\p{L}*|deep${H}learning|neural${H}(?:network|net)s?|generative${H}ai|gen${H}ai|generatiev\p{L}* ai|generative\p{L}* (?:ki|ai)|générative? ia|ia générative|ia generativa|self${H}learning (?:system|algorithm|model)s?|selbstlernende\p{L}* (?:system|algorithm|modell)\p{L}*|zelflerend\p{L}* (?:algoritme|systeem|model)\p{L}*`,
    String.raw`(?:large |small )?language models?|llms?|foundation models?|(?:ai|ml|vision|speech|machine${H}learning|deep${H}learning) models?`,
    String.raw`(?:ai|automated|algorithmic)${H}(?:[\p{L}-]{1,40} ){0,2}?(?:systems?|tools?|assistants?|agents?|software|technolog(?:y|ies)|features?|engines?|decisions?|decision${H}making|processing|screening|scoring|checks?|models?)`,
    String.raw`(?:decisions?|entscheidung\p{L}*|décisions?|decisi(?:ón|ones)|decision[ei]|beslissing\p{L}*|besluit\p{L}*|decis(?:ão|ões)) (?:\p{L}{1,40} ){0,9}?(?:automatically|automatisch|automatisiert|automatiquement|automáticamente|automaticamente|automatic[oa]\p{L}*|automátic[oa]|automatizad[oa]|automatizzat[oa])`,
    String.raw`automatically (?:\p{L}{1,40} ){0,2}?(?:decid|declin|approv|reject|assess|scor|screen|rank|select|flag|block|freez|match|sort|generat|translat|summari[sz]|transcrib)\p{L}*`,
    String.raw`automated (?:individual )?decision${H}making|automatic decision${H}making|chat${H}bots?|virtual (?:assistant|agent)s?|computer${H}vision|natural language processing|(?:image|object|face|facial|speech|voice|handwriting|pattern)${H}(?:recognition|detection|classification)`,
    String.raw`(?:ai|a\.i\.)${H}(?:generated|created|written|produced|assisted|powered|driven|based|enabled|supported|enhanced)`,
    // An algorithm that decides about people or cases, in any of the languages.
    String.raw`(?:algorithm\p{L}*|algorithmes?|algoritm\p{L}*) (?:\p{L}{1,40} ){0,4}?(?:decid\p{L}*|determin\p{L}*|assess\p{L}*|scor\p{L}*|screen\p{L}*|rank\p{L}*|approv\p{L}*|reject\p{L}*|select\p{L}*|prioriti[sz]\p{L}*|entscheid\p{L}*|bewert\p{L}*|bestimm\p{L}*|auswähl\p{L}*|priorisier\p{L}*|décid\p{L}*|détermin\p{L}*|évalu\p{L}*|sélectionn\p{L}*|decid\p{L}*|evalu\p{L}*|seleccion\p{L}*|prioriz\p{L}*|valut\p{L}*|selezion\p{L}*|beslis\p{L}*|besluit|beoordeel\p{L}*|bepal\p{L}*|bepaalt|selecteer\p{L}*|prioriteer\p{L}*|avali\p{L}*|selecion\p{L}*|assign\p{L}*|allocat\p{L}*|attribu\p{L}*|asign\p{L}*|assegn\p{L}*|zuteil\p{L}*|vergibt|verteilt|toewijs\p{L}*|wijst|verdeelt|atribu\p{L}*|distribu\p{L}*|répartit|reparte|sorts|sorted|sorting|orders|ordnet|sortiert|klassifiziert|classe|classent|trie|trient|ordena|ordenan|clasifica|clasifican|ordina|ordinano|classifica|classificano|smista|sorteert|rangschikt|ordent|classificeert|classifies|categori[sz]es|kategorisiert|catégorise|categoriza|categorizza|categoriseert)(?![\p{L}])`,
    String.raw`(?:by|durch|von|par|por|da|dal|door|pelo|pela) (?:an? |the |our |un |una |uma |een |einen |einem |einen |l${A}|el |il |o |de |het )?(?:\p{L}{1,40} )?(?:algorithm\p{L}*|algoritm\p{L}*|algorithmes?)`,
    // A computer program or system doing what a person would otherwise do: "a computer program
    // reads your CV", "Ihr Bescheid wird von einem Computersystem erstellt", "la realiza un sistema
    // informático", "un programma informatico valuta". The noun alone, or with a decision or
    // analysis verb after it or an agent preposition before it.
    String.raw`(?:computer${H}(?:programs?|programmes?|systems?|software)|computer(?:programm|system)\p{L}*|rechner(?:programm|system)\p{L}*|programmes? informatiques?|systèmes? informatiques?|logiciels? (?:de (?:notation|scoring|tri|décision)|automatis\p{L}+)|programas? informáticos?|sistemas? informáticos?|programm[ai] informatic[oi]|sistem[ai] informatic[oi]|computerprogramma\p{L}*|computersysteem\p{L}*|programas? de computador|sistemas? informatizados?) (?:\p{L}{1,40} ){0,4}?${DECIDES}`,
    // An automatic (rather than automated) system, model or program, with what it decides: "un sistema automático evalúa", "ein automatisches System bewertet", "il modello automatico valuta".
    String.raw`(?:(?:automatic|automatisch\p{L}*|automatique|automático|automática|automatico|automatica) (?:\p{L}{1,40} )?(?:systems?|models?|programs?|system\p{L}*|modell\p{L}*|programm\p{L}*|systeem|systèmes?|modèles?|programmes?)|(?:sistemas?|modelos?|programas?|sistem[ai]|modell[oi]|programm[ai]|systèmes?|modèles?|programmes?) (?:\p{L}{1,40} ){0,2}?(?:automátic[oa]s?|automatic[oi]|automatiques?)) (?:\p{L}{1,40} ){0,3}?${DECIDES_STRICT}`,
    String.raw`(?:by|durch|von|vom|par|por|da|dal|door|pelo|pela) (?:an? |the |our |un |una |uma |een |einen |einem |eines |einer |l${A}|el |il |o |de |het |unserem |notre |nuestro |nostro |ons |nosso )?(?:\p{L}{1,40} )?(?:computer${H}(?:programs?|programmes?|systems?|software)|computer(?:programm|system)\p{L}*|programmes? informatiques?|systèmes? informatiques?|programas? informáticos?|sistemas? informáticos?|programm[ai] informatic[oi]|sistem[ai] informatic[oi]|computerprogramma\p{L}*|computersysteem\p{L}*|programas? de computador)`,
    // Automated or algorithmic processing named as such, in every language: "vollständig
    // automatisiert bearbeitet", "automatisierte Kreditentscheidung", "traitement algorithmique",
    // "de forma automatizada", "sistema di scoring automatizzato", "geautomatiseerd systeem",
    // "modelo automático de pontuação".
    String.raw`automatisiert\p{L}* (?:\p{L}{1,40} ){0,1}?(?:\p{L}*entscheid\p{L}*|\p{L}*bescheid\p{L}*|\p{L}*verfahren\p{L}*|\p{L}*vergabe\p{L}*|\p{L}*zuteilung\p{L}*|\p{L}*system\p{L}*|bearbeit\p{L}*|bewert\p{L}*|erlass\p{L}*|\p{L}*prüfung\p{L}*|scoring\p{L}*|\p{L}*auswahl|vorauswahl)|(?:vollständig|vollautomatisch|automatisiert) (?:\p{L}{1,40} ){0,1}?(?:entschieden|bearbeitet|erlassen|bewertet|geprüft|ausgewählt|abgelehnt|bewilligt)`,
    // An entitlement, amount or score that is calculated or decided automatically ("Le montant de la
    // bourse est calculé automatiquement", "Ihr Anspruch wird automatisch berechnet", "el importe
    // se calcula automáticamente"); not shipping costs or a confirmation e-mail.
    String.raw`(?:amount|entitlement|eligibility|grant|benefit|allowance|score|rating|premium|anspruch\p{L}*|betrag|höhe|förderung|zuschuss|leistung\p{L}*|punktzahl|montant|droits?|éligibilité|bourse|aide|allocation|subvention|prestation|note|importe|cuantía|derecho|ayuda|beca|subvención|prestación|puntuación|importo|diritto|contributo|borsa|punteggio|bedrag|recht|toeslag|uitkering|subsidie|valor|montante|direito|apoio|bolsa|subsídio|pontuação)s? (?:\p{L}{1,40} ){0,5}?(?:(?:is|are|will be|gets?)? ?(?:calculated|determined|set|assessed|decided) automatically|automatically (?:calculated|determined|set|assessed|decided)|(?:wird|werden) (?:\p{L}+ ){0,5}?automatisch (?:berechnet|ermittelt|festgesetzt|festgelegt|bewertet)|(?:est|sont|sera|seront) (?:calculée?s?|déterminée?s?|fixée?s?|évaluée?s?) automatiquement|se (?:calcula|determina|fija|evalúa)n? (?:de forma )?automáticamente|(?:viene|vengono|è|sono) (?:calcolat|determinat|valutat)[oaie] automaticamente|(?:wordt|worden) automatisch (?:berekend|bepaald|vastgesteld)|(?:é|são) (?:calculad|determinad|avaliad)[oa]s? automaticamente)`,
    String.raw`traitements? (?:\p{L}{1,40} )?(?:algorithmiques?|automatisés?)|(?:systèmes?|outils?|dispositifs?|procédures?) (?:\p{L}{1,40} ){0,2}?(?:automatisé(?:e|s|es)?|algorithmiques?)|(?:de manière|de façon) (?:entièrement |totalement )?(?:automatisée|automatique)|(?:prises?|rendues?|décidée?s?) (?:\p{L}{1,40} ){0,2}?automatiquement`,
    String.raw`(?:sistemas?|procesos?|tratamientos?|herramientas?|procedimientos?|actuaci(?:ón|ones)(?: administrativas?)?) (?:\p{L}{1,40} ){0,2}?automatizad[oa]s?|(?:de forma|de manera|de modo) (?:totalmente |completamente |íntegramente )?automatizada`,
    String.raw`(?:sistem[ai]|process[oi]|procedur[ae]|trattament[oi]|strument[oi]) (?:\p{L}{1,40} ){0,2}?automatizzat[oiae]|in (?:modo|maniera|forma) (?:completamente |interamente )?automatizzat[ao]`,
    String.raw`geautomatiseerde? (?:\p{L}{1,40} ){0,1}?(?:systeem|systemen|beoordeling\p{L}*|verwerking|besluit\p{L}*|beslissing\p{L}*|toets\p{L}*|selectie|controle|risicobeoordeling)|automatisch\p{L}* (?:\p{L}{1,40} ){0,2}?(?:beoordeeld|besloten|afgewezen|goedgekeurd|toegekend|geselecteerd)`,
    String.raw`(?:sistemas?|processos?|tratamentos?|ferramentas?|modelos?|procedimentos?) (?:\p{L}{1,40} ){0,3}?automatizad[oa]s?|(?:modelos?|sistemas?) automátic[oa]s? de (?:pontuação|avaliação|decisão|análise)|(?:de forma|de maneira|de modo) (?:totalmente |inteiramente )?automatizada`,
    String.raw`autonomous(?:ly)? (?:\p{L}{1,40} ){0,2}?(?:decid\p{L}*|decisions?|agents?|systems?)|(?:decides?|decided|acts?|operates?) autonomously`,
    // A predictive model, in every language ("la Oficina de Admisiones utiliza un modelo predictivo").
    String.raw`predictive models?|vorhersagemodell\p{L}*|prognosemodell\p{L}*|prädiktive\p{L}* modell\p{L}*|modèles? prédictifs?|modelos? predictivos?|modell[oi] predittiv[oi]|voorspellend\p{L}* model\p{L}*|modelos? preditivos?`,
    // Software that decides by itself, or a case decided automatically by software: "our software
    // assesses it automatically", "leest onze software … en beoordeelt automatisch", "examinée
    // automatiquement par un logiciel", "valutato in automatico da un software", "È il software a
    // stabilire", "the software decides whether"; software that checks, reads, compares or decides
    // automatically a few words on ("Software leest het kenteken … en controleert automatisch",
    // "Een computerprogramma leest … en bepaalt automatisch").
    String.raw`(?:software|logiciel|programme|programma|programa|programm|computerprogramm\p{L}*|computerprogramma|system|systeem|sistema|système) (?:\p{L}{1,40} ){0,8}?(?:${DECIDES_STRICT}|checks|prüft|vérifie|comprueba|verifica|controlla|controleert|confere|reads|liest|lit|lee|legge|leest|lê|compares|vergleicht|compare|compara|confronta|vergelijkt|bepaalt|bestimmt|détermine|determina) (?:\p{L}{1,40} ){0,6}?(?:automatically|automatisch|automatiquement|automáticamente|automaticamente|in automatico)`,
    String.raw`(?:automatically|automatisch|automatiquement|automáticamente|automaticamente|in automatico|de forma automática|de forma automatizada) (?:\p{L}{1,40} ){0,2}?(?:by|durch|von|par|por|da|door|pelo|pela) (?:an? |the |our |un |une |una |uma |um |een |einer |einem |unserer |unserem |le |il |lo |o |de |het |onze |notre |nuestro |nostro |nosso )?(?:\p{L}{1,40} ){0,2}?(?:software|logiciel|programa|programm\p{L}*|programma|computer|system|sistema|système|systeem|model|modell|modèle|modelo|modello)(?![\p{L}])`,
    // Decided or examined by an automatic system: "esaminate in prima battuta da un sistema automatico" (not "innaffiate da un sistema automatico").
    String.raw`(?:${DECIDES_STRICT}|esaminat\p{L}*|examined|examinée?s?|examinad[oa]s?|geprüft|verificat\p{L}*|vérifiée?s?|checked|controlad[oa]s?|analisad[oa]s?|beoordeeld) (?:\p{L}{1,40} ){0,4}?(?:by|durch|von|par|por|da|door|pelo|pela) (?:an? |un |une |una |uno |um |uma |een |einem |einen |le |il |el |o |de |het )?(?:(?:automatic|automatisch\p{L}*|automatique|automático|automática|automatico|automatica) (?:system|systeem|système|sistema)|(?:sistema|système|systeem|system) (?:automático|automatico|automatique|automatisch))`,
    // A computer system named after its verb: "la asignación inicial la realiza un sistema informático".
    String.raw`(?:realiza|efectúa|hace|effettua|esegue|réalise|effectue|voert|realiza|efetua|führt) (?:un|una|uno|une|um|uma|een|ein|eine) (?:sistema informático|système informatique|sistema informatico|computersysteem|sistema informatizado|computersystem)`,
    String.raw`(?:è|sarà) il (?:software|programma|sistema) a (?:stabilire|decidere|valutare|calcolare|determinare)|(?:the|our) software (?:decides|determines)|(?:le|notre) logiciel (?:décide|détermine)|el (?:software|programa) (?:decide|determina)|(?:de|onze) software (?:beslist|bepaalt)|die software (?:entscheidet|bestimmt)|o (?:software|programa) (?:decide|determina)`,
    // The verb before its subject: "entscheidet eine Software der Steuerverwaltung", "beslist een
    // algoritme of u de lening krijgt", "décide un algorithme".
    String.raw`(?:entscheidet|bewertet|berechnet|bestimmt|beslist|bepaalt|beoordeelt|décide|détermine|évalue|decide|determina|evalúa|stabilisce|valuta|avalia) (?:eine|ein|die|der|das|unsere?|een|het|onze|un|une|le|la|el|il|lo|o|um|uma) (?:\p{L}+ )?(?:software|computerprogramm|programm|algorithmus|algoritme|algorithme|algoritmo|logiciel|programa|programma)`,
    // A learning system, in a compound too: "ein lernendes Empfehlungssystem", "selbstlernende Software".
    String.raw`(?:selbst)?lernende\p{L}* \p{L}*(?:system|modell|software|algorithmus)\p{L}*|zelflerend\p{L}* \p{L}*(?:systeem|model|software|algoritme)\p{L}*`,
    // An algorithm or software doing something automatically, or the verb before bare "software":
    // "Een algoritme stelt ze automatisch samen", "berekent software de prijzen … automatisch".
    String.raw`(?:algorithm\p{L}*|algoritm\p{L}*|algorithmes?|software) (?:\p{L}{1,40} ){0,4}?(?:automatically|automatisch|automatiquement|automáticamente|automaticamente|in automatico)`,
    String.raw`(?:berekent|bepaalt|beoordeelt|berechnet|bestimmt|bewertet|calcule|calcula|calcola) software (?:\p{L}{1,40} ){0,6}?(?:automatisch|automatiquement|automáticamente|automaticamente|in automatico)`,
    // A selection or screening named as automated: "passa por uma pré-seleção automatizada".
    String.raw`(?:pré-?seleção|triagem|seleção|preselección|selección|preselezione|selezione|présélection|sélection|preselectie|selectie|vorauswahl) automatiza(?:da|do)|(?:preselezione|selezione) automatizzata|(?:présélection|sélection) automatisée|automatische (?:vorauswahl|preselectie|selectie)`,
    // A cleft naming the software that decides: "c'est un logiciel qui corrige … et vous attribue",
    // "es un programa que evalúa", "è un software che valuta", "it is software that scores".
    String.raw`(?:c${A}est|es|è|é|it is|it's) (?:un |une |una |uno |um |uma |a |the |le |la |el |il |o )?(?:logiciel|programme|programa|programma|software|algorithme|algoritmo|algorithm|système informatique|sistema informático|sistema informatico) (?:qui|que|che|that|which) (?:\p{L}+ ){0,2}?(?:${DECIDES}|corrig\p{L}*|correct\p{L}*|correg\p{L}*|corregg\p{L}*|grades?|marks?|not(?:e|a)s?)`,
    // A case decided automatically, the verb first: "La respuesta se decide de forma automática",
    // "La domanda viene valutata in modo automatico", "a decisão é tomada de forma automatizada",
    // "wordt automatisch beoordeeld".
    String.raw`${DECIDES_STRICT} (?:\p{L}{1,40} ){0,2}?(?:de forma|de manera|en forma|de modo|in modo|de manière|de façon) (?:\p{L}+ )?(?:automática|automatizada|automatico|automatizzato|automatique|automatisée)`,
    // A predictive model by name: "voorspelmodel", "Prognosemodell", "modèle prédictif", "modelo predictivo".
    String.raw`predictive models?|prediction models?|forecasting models?|voorspel(?:lings)?model\p{L}*|prognosemodell\p{L}*|vorhersagemodell\p{L}*|modèles? prédicti(?:f|fs)|modelos? predictivos?|modell[oi] predittiv[oi]|modelos? preditivos?`,
    // Checked by software, in the passive: "wird vor der Veröffentlichung von einer Software geprüft",
    // "is checked by our software", "est vérifiée par un logiciel", "es revisada por un programa informático".
    String.raw`(?:geprüft|kontrolliert|ausgewertet|checked|reviewed|assessed|screened|examined|vérifiée?s?|examinée?s?|contrôlée?s?|analysée?s?|revisad[oa]s?|verificad[oa]s?|analizad[oa]s?|evaluad[oa]s?|verificat[oaie]|controllat[oaie]|esaminat[oaie]|valutat[oaie]|gecontroleerd|beoordeeld|nagekeken|analisad[oa]s?|avaliad[oa]s?|conferid[oa]s?) (?:\p{L}{1,40} ){0,6}?(?:by|von|durch|par|por|da|door|pelo|pela) (?:an? |the |our |einer |einem |unserer |unserem |un |une |una |um |uma |een |onze |notre |nuestro |nostro |nosso |il |el |o |le |la )?(?:software|logiciel|computerprogramm\p{L}*|programa informático|programma informatico|computerprogramma|programa de computador)`,
    // The verb before the site's software and "automatically": "vergelijkt onze software je cv … automatisch".
    String.raw`(?:${DECIDES}|vergelijkt|vergleicht|compares|compare|compara|confronta|matcht|matches) (?:onze|our|unsere|notre|nuestro|nuestra|il nostro|la nostra|o nosso|a nossa) software (?:\p{L}{1,40} ){0,8}?(?:automatically|automatisch|automatiquement|automáticamente|automaticamente|in automatico)`,
    // Ranked, scored or decided by a model or an algorithm, in every language: "serán ordenadas por un
    // modelo estadístico", "classées par un algorithme", "vom Modell bewertet" is below.
    String.raw`(?:ordenad|clasificad|priorizad|calificad|puntuad|seleccionad|decidid|asignad|ordinat|classificat|valutat|selezionat|decis|assegnat|priorizzat|ordenad|classificad|pontuad|selecionad|atribuíd)[oaie]?s? (?:\p{L}{1,40} ){0,3}?(?:por|da|dal|dallo|pelo|pela) (?:un |una |uno |um |uma |el |il |lo |o |nuestro |nostro |nosso )?(?:\p{L}{1,40} )?(?:modelo|modello|algoritmo)(?:s|i)?(?![\p{L}])|(?:classée?s?|triée?s?|évaluée?s?|notée?s?|sélectionnée?s?|décidée?s?|attribuée?s?|ranked|sorted|prioriti[sz]ed) (?:\p{L}{1,40} ){0,3}?(?:par|by) (?:un |une |le |la |l${A}|notre |an? |the |our )?(?:\p{L}{1,40} )?(?:modèle|algorithme|model|algorithm)s?(?![\p{L}])`,
    // A decision system named by what it is, not by an AI word: a compound whose first part is the
    // computer or a decision ("computersysteem", "beslismodel", "matchingprogramma",
    // "Computerprogramm"), or a computer or automated system in the Romance languages ("aplicação
    // informática", "sistema de puntaje automatizado", "modelo automático"), with a decision or
    // reading verb on either side: "Een beslismodel beoordeelt je melding", "neemt een
    // computersysteem het besluit", "liest zuerst ein Computerprogramm", "calculadas
    // automaticamente por uma aplicação informática", "Evaluamos tu solicitud con un modelo automático".
    String.raw`(?:computer|rechen|beslis|besluit|entscheidungs|bewertungs|matching|scoring|score|punkte|punten|rating|risico|risiko|kredit|krediet|prognose|voorspel)(?:systeem|system|programm|programma|model|modell|algoritme|algorithmus)\p{L}* (?:\p{L}{1,40} ){0,5}?(?:${DECIDES}|automatisch|het besluit|die entscheidung)|(?:${DECIDES}|neemt|nimmt) (?:\p{L}{1,40} ){0,2}?(?:een |ein |eine |einem |unser |ons |onze )?(?:computer|rechen|beslis|entscheidungs|bewertungs|matching|scoring|punkte|punten)(?:systeem|system|programm|programma|model|modell|algoritme|algorithmus)\p{L}*`,
    String.raw`(?:sistema|modelo|programa|aplicação|aplicación|applicazione|application|programme|logiciel|modèle|modello|sistema) (?:de \p{L}+ |di \p{L}+ )?(?:informátic[oa]|informatic[oa]|informatique|automatizad[oa]|automatizzat[oa]|automatisée?|automático|automática|automatico|automatica|automatique) (?:\p{L}{1,40} ){0,4}?${DECIDES}|(?:${DECIDES}|evaluamos|avaliamos|valutiamo|évaluons|analizamos|analisamos) (?:\p{L}{1,40} ){0,5}?(?:por|par|da|pelo|pela|con|avec|com|tramite|mediante) (?:un |una |une |uno |um |uma |el |le |il |lo |o |nuestro |notre |nostro |nosso )?(?:sistema|modelo|programa|aplicação|aplicación|applicazione|application|programme|logiciel|modèle|modello) (?:de \p{L}+ |di \p{L}+ )?(?:informátic[oa]|informatic[oa]|informatique|automatizad[oa]|automatizzat[oa]|automatisée?|automático|automática|automatico|automatica|automatique)`,
    // The assessment made by a system or model: "la primera evaluación la hace un sistema de calificación",
    // "la décision est prise par un logiciel", "the first assessment is carried out by a system". Each
    // alternative starts on its verb, a rarer word than the article or auxiliary before it.
    String.raw`(?:hace|hacen|realiza|realizan|efectúa|lleva a cabo) (?:un|una|el|nuestro) (?:sistema|programa|modelo|algoritmo)|(?:faite?s?|réalisée?s?|effectuée?s?|prise?s?) par (?:un|le|notre) (?:système|logiciel|programme|modèle|algorithme)|(?:fatt|effettuat|svolt|pres)[aoie] da (?:un|il|lo|il nostro) (?:sistema|software|programma|modello|algoritmo)|(?:feit|realizad|efetuad|tomad)[ao]s? (?:por um|pelo|pelo nosso) (?:sistema|programa|modelo|algoritmo)|(?:decisions?|assessments?|evaluations?) (?:is|are) (?:made|carried out|done|performed|taken) by (?:an? |the |our )?(?:automated |computer )?(?:system|program|programme|algorithm)|von (?:einem|unserem|dem) (?:system|programm|modell|algorithmus) (?:getroffen|durchgeführt|vorgenommen)|(?:gedaan|uitgevoerd|genomen) door (?:een|ons|het) (?:systeem|programma|model|algoritme)`,
    // The same in German and Dutch order, the participle last: "von einer Software geprüft", "door software gecontroleerd".
    String.raw`(?:von|durch|door) (?:einer |einem |unserer |unserem |onze |de )?(?:software|computerprogramm\p{L}*|computerprogramma) (?:\p{L}{1,40} ){0,3}?(?:geprüft|kontrolliert|ausgewertet|bewertet|analysiert|gecontroleerd|beoordeeld|nagekeken|geanalyseerd)`,
    // Software recommending for the reader: "our software suggests a replacement", "unsere Software schlägt … vor".
    String.raw`(?:our|the|unsere|die|notre|le|nuestro|el|il nostro|il|onze|de|o nosso|o) software (?:automatically |automatisch )?(?:suggests|recommends|picks|chooses|selects|schlägt|empfiehlt|wählt|suggère|recommande|choisit|sugiere|recomienda|elige|suggerisce|consiglia|sceglie|stelt|kiest|beveelt|sugere|recomenda|escolhe)`,
    // An evaluation or check carried out automatically, noun first: "La evaluación de tu solicitud se realiza de
    // forma automática", "passa attraverso un controllo automatico", "die automatische Prüfung"; not a
    // device's "controle automático de temperatura".
    String.raw`(?:evaluación|evaluation|évaluation|valutazione|avaliação|beoordeling|bewertung|prüfung|análisis|analyse|analisi|análise|verificación|vérification|verifica|verificação|decisión|décision|decisione|decisão|controllo|contrôle|control|controlo|controle) (?:\p{L}{1,40} ){0,6}?(?:de forma|de manera|de manière|de façon|in modo|in maniera) (?:automática|automatizada|automatique|automatisée|automatico|automatizzato|automatica)|(?:controllo|contrôle|control|controlo|controle|verifica|vérification|verificación|verificação) (?:automático|automatico|automatique|automatizado|automatizzato|automatisé|automatizada)(?! (?:de|da|do|della|dello|del|delle|du|des|of)(?![\p{L}]))|automatische\p{L}* (?:prüfung|kontrolle|bewertung|auswertung|vorauswahl)\p{L}*|automatic (?:check|screening|review|assessment)s?`,
    // Software examining each case: "Software checks each listing before it goes live", "Eine
    // Software prüft jeden Antrag", "un logiciel examine chaque annonce", "un programa revisa cada
    // solicitud", "un software controlla ogni domanda", "software controleert elke melding", "um
    // software confere cada anúncio". Each case, not "checks for updates".
    String.raw`(?:software|logiciel|programa informático|programma informatico|computerprogramm|computerprogramma) (?:automatically |automatisch |automatiquement |automáticamente |automaticamente )?(?:checks|reviews|screens|assesses|scores|decides on|moderates|prüft|bewertet|überprüft|kontrolliert|examine|vérifie|évalue|contrôle|revisa|evalúa|comprueba|verifica|controlla|valuta|esamina|controleert|beoordeelt|confere|avalia|analisa|analiza|analizza|analyse|analysiert) (?:each|every|all|your|jede\p{L}*|alle|ihre?n?|chaque|tous|toutes|votre|vos|cada|tod[oa]s|su|sus|ogni|tutt[ei]|la vostra|il vostro|la tua|il tuo|elke|iedere|uw|je|o seu|a sua|os seus|as suas)(?![\p{L}])`,
    // An algorithm comparing a person's CV or application ("Um algoritmo compara o seu perfil com os requisitos").
    String.raw`(?:algorithm\p{L}*|algorithmes?|algoritm\p{L}*) (?:\p{L}{1,40} ){0,2}?compar\p{L}* (?:\p{L}{1,40} ){0,3}?(?:cv|curriculum|résumé|profile?|perfil|profilo|profiel|lebenslauf|bewerbung|candidatur\p{L}*|applications?|solicitud|domanda|aanvraag|candidatura)`,
    // German
    String.raw`künstliche\p{L}* intelligenz|maschinelle\p{L}* (?:übersetzung\p{L}*|übersetzungssystem\p{L}*|vorübersetzung\p{L}*)|maschinelle\p{L}* lernen\p{L}*|sprachmodell\p{L}*|neuronale\p{L}* netz\p{L}*|ki-\p{L}+|automatisierte\p{L}* (?:einzel)?entscheidung\p{L}*`,
    // French
    String.raw`intelligence artificielle|traduction automatique|apprentissage (?:automatique|profond)|modèles? de langage|réseaux? de neurones|décisions? (?:individuelles? )?automatisées?|agent conversationnel|assistant virtuel`,
    // Spanish
    String.raw`inteligencia artificial|traducción automática|aprendizaje (?:automático|profundo)|modelos? de lenguaje|redes? neuronal(?:es)?|decisi(?:ón|ones) automatizadas?|asistente virtual`,
    // Italian
    String.raw`intelligenza artificiale|traduzione automatica|apprendimento automatico|modell[oi] (?:linguistic[oi]|di linguaggio)|ret[ei] neural[ei]|decision[ei] automatizzat[ae]|assistente virtuale`,
    // Dutch
    String.raw`kunstmatige intelligentie|machinevertaling\p{L}*|automatische vertaling\p{L}*|artificiële intelligentie|machinaal leren|taalmodel(?:len)?|neurale netwerken?|geautomatiseerde (?:besluitvorming|beslissingen?)|virtuele assistent`,
    // Portuguese
    String.raw`inteligência artificial|tradução automática|aprendi(?:zagem|zado) (?:automátic[ao]|de máquina)|modelos? de linguagem|redes? neura(?:l|is)|decis(?:ão|ões) automatizadas?|assistente virtual`,
  ],
  exact: [
    // "AI", "KI", "IA" alone only as a noun in running text: after an article, preposition or
    // possessive ("the AI", "mit KI", "dell'IA", "our AI"), or opening a block or sentence (the
    // lexeme runs over the whole page, so a sentence start is a newline or a full stop). So "Amnesty
    // AI", "Des Moines, IA" and "KIA" are not AI.
    // The acronym is matched first and the words before it checked after, so the look-behind
    // runs only where an acronym stands, not at every position of the text.
    String.raw`(?:AI|A\.I\.|KI|IA)(?<=(?:(?:^|[\s(])(?i:the|an?|our|their|its|your|with|by|using|uses?|used|of|to|and|or|from|through|via|for|on|in|about|die|der|den|dem|ein|eine|einer|einem|eines|mit|durch|von|per|für|und|oder|unser\p{L}*|la|le|les|de|des|du|et|ou|par|avec|notre|nos|con|por|para|y|o|nuestr\p{L}*|e|della|alla|dalla|sulla|nella|nostr\p{L}*|een|het|met|door|voor|en|of|onze|com|pela|pelo|da|do|na|noss\p{L}*) |\p{L}*[lL]['’]|\(|^|\n|[.!?:;…] )(?:AI|A\.I\.|KI|IA))`,
    String.raw`GenAI|LLMs?|GPT-?\d[\w.-]*|ChatGPT|(?:AI|KI|IA)-\p{L}+|\p{Lu}\p{Ll}{1,20}-(?:AI|KI|IA)`,
    // The acronym as an adjective after a system noun, as French, Spanish, Italian and Portuguese
    // place it ("un assistant IA", "asistente IA", "strumento IA", "ferramenta IA").
    String.raw`(?:IA|AI)(?<=(?i:assistante?s?|assistente?s?|asistentes?|agents?|agentes?|chatbots?|outils?|herramientas?|strument[oi]|ferramentas?|systèmes?|sistem[aie]s?|modèles?|modelos?|modell[oi]|moteurs?|motor|motore) (?:IA|AI))`,
  ],
});

/** Negation words per language. Each page is read with its own language's list (see `negationFor`). */
const NEGATION_WORDS: Readonly<Record<string, string>> = {
  en: String.raw`not|(?:do|does|did|is|are|was|were|ca|wo|could|would|should|have|has|had|must|need)n${A}t|never|no|none|nothing|neither|nor|cannot`,
  de: String.raw`nicht|kein\p{L}*|nie|niemals|weder|nichts`,
  fr: String.raw`ne|n${A}|pas|jamais|aucun\p{L}*|ni|nul\p{L}*|rien`,
  es: String.raw`no|nunca|ningun\p{L}*|ningún|nada|tampoco|ni`,
  it: String.raw`non|nessun\p{L}*|mai|né|niente|nulla`,
  nl: String.raw`niet|geen|nooit|noch|niets`,
  pt: String.raw`não|nenhum\p{L}*|nunca|jamais|nem|nada`,
};

/**
 * The negation words for a page's language (`<html lang>`), or of every language when it is
 * unknown, less the false friends that are ordinary words elsewhere: Portuguese "no" ("in the"),
 * French "mai" (May), German "noch" (still).
 */
export function negationFor(lang: string | null): Lexeme {
  const key = lang?.slice(0, 2).toLowerCase() ?? '';
  const cacheKey = key in NEGATION_WORDS ? key : '';
  let negation = negationCache.get(cacheKey);
  if (negation === undefined) {
    const known = NEGATION_WORDS[cacheKey];
    negation = lexeme({
      lower: known !== undefined ? [known] : Object.entries(NEGATION_WORDS).map(([code, words]) => FALSE_FRIENDS_LEFT_OUT[code] ?? words),
    });
    negationCache.set(cacheKey, negation);
  }
  return negation;
}

/** A language's negation words without those that are ordinary words elsewhere: Italian "mai" (French May), Dutch "noch" (German "still"). */
const FALSE_FRIENDS_LEFT_OUT: Readonly<Record<string, string>> = { it: String.raw`non|nessun\p{L}*|né`, nl: String.raw`niet|geen|nooit` };

/** One compiled lexeme per language: a regex compiled per page would never reach V8's native tier. */
const negationCache = new Map<string, Lexeme>();

/**
 * An indirect question: "asked whether we use AI", "gefragt, ob wir KI einsetzen", "nos preguntan
 * si utilizamos …" asserts nothing in its clause; a comma closes it (see isNegated).
 */
export const UNASSERTED = lexeme({ lower: [String.raw`whether|ob|si`] });

/** "Without", which negates alone and cancels a negation before it ("no decision without a human review"). */
export const WITHOUT = lexeme({ lower: [String.raw`without|ohne|sans|sin|senza|zonder|sem`] });

/**
 * What looks like a negation but is not one: "not only", and the French pair "ne … pas" (or
 * "ne … jamais", "n'… aucun"), which is one negation written as two words.
 */
export const NOT_A_NEGATION = lexeme({
  lower: [
    String.raw`not only|not just|nicht nur|non seulement|no solo|no sólo|non solo|niet alleen|não só|não apenas`,
    String.raw`(?:ne|n${A}) ?(?:\p{L}{1,40} ){0,3}?(?:pas|jamais|plus|aucun\p{L}*|rien|personne)`,
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
 * A byline or a genre label opens editorial content: news, reviews, opinion, columns. There the
 * AI under discussion is usually someone else's ("By Priya Natarajan, technology correspondent",
 * "Opinion · Rachel Amadi", "Von Jana Wiechert").
 */
const GENRE_LABELS = [
  'Opinion', 'Review', 'Analysis', 'Column', 'Commentary', 'Editorial', 'Op-Ed',
  'Meinung', 'Kommentar', 'Gastkommentar', 'Gastbeitrag', 'Leitartikel', 'Kolumne', 'Rezension',
  'Tribune', 'Chronique', 'Critique', 'Point de vue', 'Éditorial',
  'Opinión', 'Tribuna', 'Columna', 'Análisis', 'Reseña', 'Crítica', 'Punto de vista',
  'Opinione', 'Opinioni', 'Commento', 'Rubrica', 'Recensione', 'Editoriale',
  'Opinie', 'Opiniestuk', 'Column', 'Recensie', 'Commentaar',
  'Opinião', 'Coluna', 'Análise', 'Artigo de opinião',
];
/** Labels that also open ordinary sentences with a colon ("Hintergrund: warum wir …"): only alone or before a dot or dash. */
const GENRE_LABELS_STRICT = [
  'Explainer', 'Erklärstück', 'Hintergrund', 'Décryptage', 'Reportage', 'Explicador', 'Explicativo', 'Approfondimento', 'Achtergrond',
  'Reportaje', 'Crónica', 'Inchiesta', 'Reportagem', 'Crônica',
];
/** A genre label as written, or in capitals ("OPINIÓN · TRIBUNA"): section labels are often set in upper case. */
const inBothCases = (labels: readonly string[]): string => [...new Set(labels.flatMap((label) => [label, label.toUpperCase()]))].join('|');
const GENRE = inBothCases(GENRE_LABELS);
const GENRE_STRICT = inBothCases(GENRE_LABELS_STRICT);

/**
 * A news agency's credit in parentheses, as wire copy opens or signs a story ("JAÉN (EFE).",
 * "(dpa)", "(ANSA) -"): the text is a report, whoever publishes it.
 */
export const AGENCY_CREDIT = /\((?:EFE|Europa Press|dpa|AFP|Reuters|AP|ANSA|Adnkronos|Lusa|Agência Brasil|ANP|Belga|APA|Keystone-SDA|SDA|KNA|epd)\)/u;

export const EDITORIAL_MARK = new RegExp(
  String.raw`^(?:(?i:by|von|par|por|di|door|da|av|texto de|text von|written by|words by|escrito por|scritto da|geschreven door|écrit par|rédigé par|(?:author|autor|autorin|autora|auteur|auteure|autore|autrice|auteur van) ?:) \p{Lu}[\p{L}'’-]+\.?(?: \p{Lu}[\p{L}'’-]+)|(?:${GENRE})(?: [·|–—:-]|$)|(?:${GENRE_STRICT})(?: [·|–—]|$))`,
  'u',
);

/**
 * Attribution to someone other than the site: the sentence reports what another party made or
 * said ("Lumio says", "the company claims", "nach Angaben des Herstellers", "selon le fabricant").
 * A company noun counts only as the subject of a speech verb ("the manufacturer says"; not "the
 * manufacturer's specifications"), and "according to" not before a standard or rule ("volgens
 * APA", "selon la norme", "laut Gesetz") nor before a possessive ("según su nivel de necesidad":
 * a criterion, not a source).
 */
export const REPORTING = lexeme({
  lower: [
    String.raw`advertises|advertise|advertising|says|said|claims that|claimed (?:that|to)|told|according to(?! (?:(?:the|de|het|la|le|les|el|los|las|die|der|den|il|lo|o|a|l${A})\s?)?(?:apa|mla|iso|din|norm\p{L}*|standa\p{L}*|richtlijn\p{L}*|regel\p{L}*|règles?|reglas?|regole|normas?|normes?|wet|ley|loi|legge|lei|gesetz\p{L}*|protocol\p{L}*|schema|planning|plan|r[úu]bri\p{L}*|barème|grille|crit[eéè]ri\p{L}*|kriteri\p{L}*|reglament\p{L}*|regolament\p{L}*|règlement|verordnung\p{L}*|tarif\p{L}*|rig[oa]|righe|voc[ei]|campo|casilla|línea|linha|ligne|zeile|categor\p{L}*|kategor\p{L}*|tip[oi]|type|typ|nivel|niveau|livello|nível|urgen\p{L}*|priorit\p{L}*|gravit\p{L}*|gravedad|tabel\p{L}*|tabla|tableau|classi\p{L}*|clasifica\p{L}*|klass\p{L}*)(?![\p{L}]))|announced|unveiled|reportedly|the (?:company|firm|start${H}up|maker|manufacturer|vendor) (?:\p{L}+ ){0,2}?(?:says|said|claims|claimed|states|stated|announced|reports|reported|told|explains|explained|adds|added|insists|promises)`,
    String.raw`wirbt mit|werben mit|sagte|sagt|laut(?! (?:ihre[mnrs]?|seine[mnrs]?|unsere[mnrs]?|ihrem|ihrer) )(?! (?:(?:the|de|het|la|le|les|el|los|las|die|der|den|il|lo|o|a|l${A})\s?)?(?:apa|mla|iso|din|norm\p{L}*|standa\p{L}*|richtlijn\p{L}*|regel\p{L}*|règles?|reglas?|regole|normas?|normes?|wet|ley|loi|legge|lei|gesetz\p{L}*|protocol\p{L}*|schema|planning|plan|r[úu]bri\p{L}*|barème|grille|crit[eéè]ri\p{L}*|kriteri\p{L}*|reglament\p{L}*|regolament\p{L}*|règlement|verordnung\p{L}*|tarif\p{L}*|rig[oa]|righe|voc[ei]|campo|casilla|línea|linha|ligne|zeile|categor\p{L}*|kategor\p{L}*|tip[oi]|type|typ|nivel|niveau|livello|nível|urgen\p{L}*|priorit\p{L}*|gravit\p{L}*|gravedad|tabel\p{L}*|tabla|tableau|classi\p{L}*|clasifica\p{L}*|klass\p{L}*)(?![\p{L}]))|nach angaben|kündigte|(?:das unternehmen|der hersteller|das start${H}up|die firma) (?:\p{L}+ ){0,2}?(?:sagt|sagte|erklärt|erklärte|betont|betonte|teilt|teilte|verspricht|versprach|kündigt|kündigte|behauptet|behauptete|gibt an|gab an)`,
    String.raw`annoncent|vantent|selon(?! (?:son|sa|ses|leur|leurs|votre|vos|notre|nos) )(?! (?:(?:the|de|het|la|le|les|el|los|las|die|der|den|il|lo|o|a|l${A})\s?)?(?:apa|mla|iso|din|norm\p{L}*|standa\p{L}*|richtlijn\p{L}*|regel\p{L}*|règles?|reglas?|regole|normas?|normes?|wet|ley|loi|legge|lei|gesetz\p{L}*|protocol\p{L}*|schema|planning|plan|r[úu]bri\p{L}*|barème|grille|crit[eéè]ri\p{L}*|kriteri\p{L}*|reglament\p{L}*|regolament\p{L}*|règlement|verordnung\p{L}*|tarif\p{L}*|rig[oa]|righe|voc[ei]|campo|casilla|línea|linha|ligne|zeile|categor\p{L}*|kategor\p{L}*|tip[oi]|type|typ|nivel|niveau|livello|nível|urgen\p{L}*|priorit\p{L}*|gravit\p{L}*|gravedad|tabel\p{L}*|tabla|tableau|classi\p{L}*|clasifica\p{L}*|klass\p{L}*)(?![\p{L}]))|a annoncé|a dévoilé|affirme|(?:le fabricant|l${A}entreprise|la société|la start${H}up) (?:\p{L}+ ){0,2}?(?:affirme|explique|annonce|a annoncé|assure|précise|indique|déclare|promet|a déclaré|a expliqué)`,
    String.raw`anuncian|promocionan|según(?! (?:su|sus|tu|tus|nuestr[oa]s?) )(?! (?:(?:the|de|het|la|le|les|el|los|las|die|der|den|il|lo|o|a|l${A})\s?)?(?:apa|mla|iso|din|norm\p{L}*|standa\p{L}*|richtlijn\p{L}*|regel\p{L}*|règles?|reglas?|regole|normas?|normes?|wet|ley|loi|legge|lei|gesetz\p{L}*|protocol\p{L}*|schema|planning|plan|r[úu]bri\p{L}*|barème|grille|crit[eéè]ri\p{L}*|kriteri\p{L}*|reglament\p{L}*|regolament\p{L}*|règlement|verordnung\p{L}*|tarif\p{L}*|rig[oa]|righe|voc[ei]|campo|casilla|línea|linha|ligne|zeile|categor\p{L}*|kategor\p{L}*|tip[oi]|type|typ|nivel|niveau|livello|nível|urgen\p{L}*|priorit\p{L}*|gravit\p{L}*|gravedad|tabel\p{L}*|tabla|tableau|classi\p{L}*|clasifica\p{L}*|klass\p{L}*)(?![\p{L}]))|anunció|afirma|(?:el fabricante|la empresa|la startup) (?:\p{L}+ ){0,2}?(?:afirma|explica|anuncia|anunció|asegura|señala|indica|declara|promete|sostiene|afirmó|explicó)`,
    // "secondo" and "segundo" are also the ordinal ("secondo lettore", "segundo leitor": a second
    // reader): "according to" only before an article, a pronoun or "quanto".
    String.raw`annunciano|pubblicizzano`,
    String.raw`secondo (?:(?:il|lo|la|i|gli|le|l${A})(?! ?(?:rig[oa]|righe|voc[ei]|campo|categori\p{L}*|tip[oi]|livell[oi]|urgenza|priorità|gravità|tabell\p{L}*|classi\p{L}*|regol\p{L}*|norm\p{L}*|criteri\p{L}*|schema|tariff\p{L}*|ordine)(?![\p{L}]))|lui|lei|loro|quanto|fonti|dati)(?![\p{L}])|ha annunciato|afferma|(?:il produttore|l${A}azienda|la startup) (?:\p{L}+ ){0,2}?(?:afferma|spiega|annuncia|ha annunciato|assicura|sostiene|dichiara|promette|precisa|ha spiegato)`,
    String.raw`adverteert met|adverteren met|volgens(?! (?:zijn|haar|hun|uw|jouw|onze|ons) )(?! (?:(?:the|de|het|la|le|les|el|los|las|die|der|den|il|lo|o|a|l${A})\s?)?(?:apa|mla|iso|din|norm\p{L}*|standa\p{L}*|richtlijn\p{L}*|regel\p{L}*|règles?|reglas?|regole|normas?|normes?|wet|ley|loi|legge|lei|gesetz\p{L}*|protocol\p{L}*|schema|planning|plan|r[úu]bri\p{L}*|barème|grille|crit[eéè]ri\p{L}*|kriteri\p{L}*|reglament\p{L}*|regolament\p{L}*|règlement|verordnung\p{L}*|tarif\p{L}*|rig[oa]|righe|voc[ei]|campo|casilla|línea|linha|ligne|zeile|categor\p{L}*|kategor\p{L}*|tip[oi]|type|typ|nivel|niveau|livello|nível|urgen\p{L}*|priorit\p{L}*|gravit\p{L}*|gravedad|tabel\p{L}*|tabla|tableau|classi\p{L}*|clasifica\p{L}*|klass\p{L}*)(?![\p{L}]))|kondigde|zegt|zei|(?:de fabrikant|het bedrijf) (?:\p{L}+ ){0,2}?(?:zegt|zei|stelt|meldt|kondigt|belooft|verklaart|benadrukt|claimt)`,
    String.raw`anuncia|anunciam|divulgam`,
    String.raw`segundo (?:(?:o|a|os|as)(?! (?:linha|campo|categori\p{L}*|tipo|nível|níveis|urgência|prioridade|gravidade|tabela|classe|regra\p{L}*|norma\p{L}*|crit[eé]ri\p{L}*|esquema|tarifa|ordem)(?![\p{L}]))|ele|ela|eles|elas|fontes|dados)(?![\p{L}])|anunciou|afirma|(?:o fabricante|a empresa) (?:\p{L}+ ){0,2}?(?:afirma|explica|anuncia|anunciou|garante|diz|disse|declara|promete|afirmou)`,
  ],
});

/**
 * Other organisations offering AI, as a page contrasts itself with them ("Sommige leveranciers
 * bieden inmiddels software aan die …", "muitas agências …", "many vendors now sell …").
 */
export const OTHER_PARTIES = lexeme({
  lower: [
    String.raw`(?:some|many|other|most|several|sommige|veel|andere|meeste|einige|viele|manche|andere|certains|certaines|beaucoup d${A}|d${A}autres|algun[oa]s|much[oa]s|otr[oa]s|alcun[ei]|molt[ei]|altr[ei]|alguns|algumas|muit[oa]s?|outr[oa]s) (?:\p{L}+ ){0,2}?(?:vendors|suppliers|providers|companies|firms|agencies|competitors|banks|insurers|leveranciers|aanbieders|bedrijven|concurrenten|anbieter|hersteller|firmen|unternehmen|konkurrenten|fournisseurs|entreprises|concurrents|proveedores|empresas|competidores|fornitori|aziende|concorrenti|fornecedores|agências|agência|concorrentes)`,
  ],
});

/** A first-person possessive, which makes the noun after it the site's own ("our AI travel planner"). */
export const OUR = lexeme({ lower: [String.raw`our|unser\p{L}*|notre|nos|nuestr\p{L}*|nostr\p{L}*|onze|noss\p{L}*`] });

/** Determiners, demonstratives and possessives before a noun, in the seven languages (lower-case). */
export const DETERMINER =
  String.raw`the|this|that|our|its|der|die|das|den|dem|des|dieser|diese|dieses|diesen|diesem|unser|unsere|unseren|unserem|unserer|unseres|le|la|l['’]|ce|cet|cette|notre|el|este|esta|ese|esa|nuestro|nuestra|del|al|il|lo|questo|questa|nostro|nostra|dello|della|dal|dalla|nel|nella|dell['’]|de|het|deze|dit|onze|o|a|nosso|nossa|do|da|no|na|pelo|pela|ao`;

/** Nouns that name an automated system, in the seven languages (lower-case): "the model", "das System", "el asistente". */
export const SYSTEM_NOUNS =
  String.raw`tool|system|model|assistant|engine|software|bot|chatbot|algorithm|programme|program|werkzeug|modell|assistent\p{L}*|algorithmus|programm|outil|système|modèle|moteur|logiciel|algorithme|herramienta|sistema|modelo|asistente|motor|algoritmo|programa|strumento|modello|assistente|programma|systeem|algoritme|ferramenta`;
