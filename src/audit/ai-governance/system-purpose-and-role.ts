// ai-governance.system-purpose-and-role (Map): visible text or a named documentation link states
// the system purpose, intended use, or model/system role.
//
// It documents a system the site deploys or offers, so it is only looked for on a page that
// discloses one (`disclosureOf`): a page that reports on AI, or whose AI wording is hidden or
// negated, fails. On such a page a purpose is stated when an affirmed purpose cue stands in a
// sentence about the AI system:
//
// 1. A purpose predicate: "is designed / intended / meant / used to", "we use <it> to", "helps
//    you", "its job is", "serves as", "dient dazu", "ist dazu bestimmt", ", um … zu", "sert à",
//    "permet de", "sirve para", "se utiliza para", "serve a", "ha lo scopo di", "is bedoeld om",
//    "om … te", "serve para", "tem como objetivo". The sentence may be about AI itself, through
//    its section (a heading or a sentence naming AI) or through the page's title / h1.
// 2. A purpose heading ("Intended use", "What it is for", "Zweckbestimmung", "¿Para qué
//    sirve?", "A cosa serve", "Waarvoor", "Para que serve") over content, in an AI section.
// 3. What the system does: a functional verb ("suggests", "flags", "estimates", "beantwortet",
//    "résume", "clasifica", "segnala", "voorspelt", "deteta") whose subject is the AI system:
//    an AI term or the system's name in the clause before it (or right after it, for verb-second
//    German and Dutch), a pronoun or "the tool / das System" in an AI section, or a sentence
//    opening on the verb (pro-drop languages) in an AI section.
//
// Not counted: a cue in a negated clause ("it does not diagnose"), a sentence that reports
// another party's claims, cookie notices, and a bare content label ("AI-generated voices",
// "decisions are made automatically"): a disclosure, not a purpose.
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { MADE_BY_AI } from './ai-disclosure-notice.ts';
import { ownSystemOf } from './own-system.ts';
import { discourseOf, hitsIn, isAiSection, isNegated, mentionsAi, refersByAlias, scanSentence, type Discourse, type Section, type Sentence } from './discourse.ts';
import { corpusOf, linked, notFound, quoted, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, AI_TERMS, H, REPORTING, SYSTEM_NOUNS, findAll, lexeme, type Lexeme } from './lexicon.ts';

/** Not after a hyphen: "KI-unterstützt" and "AI-assisted" are labels, not verbs. */
const NH = '(?<![-\u2010\u2011])';
/** Up to `n` words (letters, digits, hyphens, apostrophes; a list's commas too) as a bounded gap. */
const gap = (n: number): string => String.raw`(?:[\p{L}\d'’-]+,? ){0,${n}}?`;

/** Lexeme sources per language (`<html lang>`), so a word of one language is no false friend in another ("guide", "resume", "plant", "serve a"). */
type Sources = Readonly<Record<'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt', readonly string[]>>;

const compiled = new WeakMap<Sources, Map<string, Lexeme>>();

/** The lexeme of a page's language, or of every language when it is unknown; compiled once per language. */
function inLanguage(sources: Sources, lang: string | null): Lexeme {
  const code = lang?.slice(0, 2).toLowerCase() ?? '';
  const key = Object.hasOwn(sources, code) ? code : '*';
  let byLang = compiled.get(sources);
  if (byLang === undefined) {
    byLang = new Map();
    compiled.set(sources, byLang);
  }
  let found = byLang.get(key);
  if (found === undefined) {
    found = lexeme({ lower: key === '*' ? Object.values(sources).flat() : sources[key as keyof Sources] });
    byLang.set(key, found);
  }
  return found;
}

/**
 * Purpose predicates, per language: what the system is for, whoever the grammatical subject is
 * ("Symptra is intended to help", "we use it to route your claim", "die KI dient der
 * Vorauswahl"). Passive participles take a gap for adverbs ("used only for").
 */
export const PURPOSE_PREDICATE: Sources = {
  en: [
      String.raw`(?:designed|intended|meant|built|developed|trained|used|deployed|employed|configured|optimi[sz]ed|programmed|tuned|created|there|here|in place) (?:only |solely |mainly |primarily |specifically |exclusively |purely |just |largely |chiefly )?(?:to|for|as)`,
      String.raw`${NH}(?:use|uses|used|using|employ|employs|deploy|deploys|rely on|relies on|leverage|leverages) ${gap(16)}(?:to|for|in order to|so that|as an?|as the)`,
      // "apply X to": an object first, since "does this apply to business customers?" is about scope.
      String.raw`${NH}(?:apply|applies) (?:[\p{L}\d'’-]+,? ){1,16}?(?:to|for|in order to)`,
      String.raw`(?:its|the|their|his|her|our|sole|main|primary|only|whose|key|core) (?:\p{L}+ )?(?:purpose|role|job|task|function|aim|goal|objective|mission|use case|intended use)s? (?:is|are|was|were|here|remains|will be|includes?)|(?:purpose|role|function|goal|aim|objective|task|job) of (?:the|this|our|its|that|[\p{L}-]+ is to)|intended (?:use|uses|purpose|purposes|users?)|use cases?`,
      String.raw`${NH}(?:helps?|helping|assists?|assisting|supports?|supporting|lets|allows?|enables?|empowers?) (?:you|users?|customers?|clients?|patients?|staff|employees|colleagues|teams?|agents?|advis[eo]rs|clinicians|doctors|radiologists|nurses|teachers|students|learners|farmers|growers|engineers|developers|us|people|residents|citizens|applicants|candidates|shoppers|travell?ers|readers|drivers|operators|planners|inspectors|recruiters|lawyers|accountants|our|the|your|them|him|her)|${NH}(?:helps?|helping|help) (?:with|to)|(?:can|will|may|could|to) help`,
      String.raw`(?:serves?|acts?|works?|functions?|operates?) as (?:an? |the |your |our )?[\p{L}-]+|serves? to|aims? to|exists? to|is tasked with|is responsible for|how (?:we|you|this (?:site|service|app|website)|our [\p{L}-]+) uses?`,
  ],
  de: [
      String.raw`dien(?:t|en|te|ten)|(?:dazu|dafür|hierfür) (?:\p{L}+ ){0,2}?(?:bestimmt|gedacht|da|vorgesehen|konzipiert|ausgelegt|entwickelt|gebaut|trainiert)|(?:bestimmt|gedacht|vorgesehen|konzipiert|ausgelegt|eingesetzt|verwendet|genutzt|benutzt|angewendet|angewandt)(?: (?:ist|sind|wird|werden))?,? (?:um|für|zur|zum|als)`,
      String.raw`(?:für|zur|zum|bei|als) ${gap(10)}(?:gedacht|bestimmt|vorgesehen|konzipiert|ausgelegt|eingesetzt|verwendet|genutzt|benutzt|angewendet)|(?:nutzen|nutzt|verwenden|verwendet|setzen|setzt|einsetzen) ${gap(6)}(?:ein,? )?(?:um|für|zur|zum)`,
      String.raw`${NH}(?:hilft|helfen|unterstützt|unterstützen|ermöglicht|ermöglichen|erleichtert|erleichtern|entlastet|entlasten)|soll|(?:der|sein|ihr|dessen|deren|einzige[rn]?|alleinige[rn]?|eigentliche[rn]?) (?:\p{L}+ )?(?:zweck|ziel|aufgabe|rolle|einsatzzweck|verwendungszweck)|(?:zweck|ziel|aufgabe|rolle) (?:des|der|dieses|dieser|unseres|unserer)|hat (?:die aufgabe|das ziel|den zweck)|(?:ziel|zweck|aufgabe) ist,? (?:es|dass)|zweckbestimmung|bestimmungsgemäße\p{L}* (?:verwendung|gebrauch|einsatz)|wie wir ${gap(3)}(?:nutzen|einsetzen|verwenden)`,
  ],
  fr: [
      String.raw`sert (?:\p{L}+ )?(?:à|a|de)|servent (?:\p{L}+ )?(?:à|de)|(?:conçue?s?|destinée?s?|utilisée?s?|employée?s?|entraînée?s?|prévue?s?|pensée?s?|chargée?s?|déployée?s?|développée?s?) (?:\p{L}+ ){0,2}?(?:à|pour|de|d${A}|comme)`,
      String.raw`(?:nous|on) (?:utilisons|employons|utilise|emploie|déployons|avons recours à) ${gap(6)}(?:pour|afin de|afin d${A}|comme)|${NH}permet(?:tent)? (?:de|d${A}|aux?|à|la|le|l${A}|une?|des|vos|nos)|${NH}aident? (?:à|les|vos|nos|vous|au|la|le)|vous aide|${NH}(?:accompagne|facilite)(?:nt)?`,
      String.raw`(?:a|ont) pour (?:seul |seule |unique |principal |principale |premier )?(?:but|objet|objectif|rôle|mission|fonction|vocation|finalité)|vise(?:nt)? à|(?:(?:son|sa|leur|le|la|seul|seule|unique|dont le|dont la) |l${A} ?)(?:\p{L}+ )?(?:rôle|but|objectif|mission|fonction|finalité|vocation)|finalité|(?:usage|utilisation) (?:prévue?|visée?|envisagée?)|comment nous utilisons`,
  ],
  es: [
      String.raw`se destinan?|sirven? (?:\p{L}+ )?para|se (?:utiliza|usa|emplea|aplica)n? (?:\p{L}+ ){0,2}?(?:para|como)|(?:diseñad|pensad|destinad|entrenad|concebid|cread|desarrollad|utilizad|usad|emplead|configurad|programad)[oa]s? (?:\p{L}+ ){0,2}?(?:para|a|como)`,
      String.raw`(?:utilizamos|usamos|empleamos|aplicamos|nos apoyamos en) ${gap(6)}(?:para|con el fin de|a fin de|como)|${NH}(?:te |le |les |nos |os )?ayudan? (?:a|con|en)|${NH}permiten? (?:\p{L}+ )?|${NH}facilitan?`,
      String.raw`tienen? (?:como|por) (?:objetivo|finalidad|función|misión|propósito)|(?:su|la|el|cuyo|cuya|única|único|principal) (?:\p{L}+ )?(?:función|finalidad|objetivo|propósito|papel|rol|misión|tarea)|uso previsto|casos? de uso|cómo (?:usamos|utilizamos)`,
  ],
  it: [
      String.raw`serv(?:e|ono) (?:\p{L}+ )?(?:a|ad|per)|(?:progettat|pensat|destinat|addestrat|concepit|creat|sviluppat|utilizzat|usat|impiegat|configurat)[oaie] (?:\p{L}+ ){0,2}?(?:a|ad|per|come)|vien(?:e|gono) (?:\p{L}+ )?(?:utilizzat|usat|impiegat)[oaie]`,
      String.raw`(?:utilizziamo|usiamo|impieghiamo|adoperiamo|ci affidiamo a) ${gap(6)}(?:per|al fine di|allo scopo di|come)|${NH}(?:ti |vi |ci |la |lo |li |le )?aiuta(?:no)? (?:a|ad|nella|nel|con|i|gli|le)|${NH}(?:permette|consente)(?:no)? (?:di|a|al|alla|ai|agli)|${NH}(?:supporta|assiste)(?:no)?`,
      String.raw`ha (?:(?:lo|il|la|l${A}) ?)?(?:\p{L}+ )?(?:scopo|obiettivo|compito|ruolo|funzione) di|(?:(?:suo|sua|il|lo|la|unico|unica|principale) |l${A} ?)(?:\p{L}+ )?(?:scopo|obiettivo|compito|ruolo|funzione|finalità)|uso previsto|destinazione d${A}uso|casi d${A}uso|come (?:usiamo|utilizziamo)`,
  ],
  nl: [
      String.raw`(?:bedoeld|ontworpen|gemaakt|ontwikkeld|getraind|bestemd|ingericht|gebouwd) (?:\p{L}+ ){0,2}?(?:om|voor|als)|(?:wordt|worden|werd|werden) ${gap(4)}(?:gebruikt|ingezet|toegepast) (?:om|voor|bij|als)|(?:voor|om|bij) ${gap(5)}(?:gebruikt|ingezet|toegepast)`,
      String.raw`(?:gebruiken|gebruikt|zetten|zet) ${gap(6)}(?:in )?(?:om|voor)|${NH}(?:helpt|helpen|ondersteunt|ondersteunen)|maakt het mogelijk|stelt (?:je|u|ons|jou) in staat|dient (?:om|als|voor|ter)`,
      String.raw`(?:het|zijn|haar|de|enige|belangrijkste) (?:\p{L}+ )?(?:doel|taak|rol|functie)|heeft (?:als )?(?:doel|taak)|beoogd gebruik|hoe (?:wij|we) ${gap(2)}(?:gebruiken|inzetten)`,
  ],
  pt: [
      String.raw`servem? (?:\p{L}+ )?(?:para|a|de)|voltad[oa]s? (?:\p{L}+ )?para|(?:projetad|pensad|destinad|treinad|concebid|criad|desenvolvid|utilizad|usad|empregad|configurad|programad)[oa]s? (?:\p{L}+ ){0,2}?(?:para|a|como)|é (?:\p{L}+ )?(?:usad|utilizad)[oa] (?:para|como)`,
      String.raw`(?:usamos|utilizamos|empregamos|recorremos a) ${gap(6)}(?:para|a fim de|com o objetivo de|como)|${NH}(?:o |a |os |as |te |lhe |vos )?ajudam? (?:a|o|os|as|você|na|no|com)|${NH}(?:auxilia|apoia)m?`,
      String.raw`destina(?:m)?-se|tem (?:como|por) (?:objetivo|finalidade|função|missão)|(?:seu|sua|o|a|cujo|cuja|único|única|principal) (?:\p{L}+ )?(?:objetivo|finalidade|função|papel|propósito|missão|tarefa)|uso pretendido|utiliza[çc][ãa]o prevista|como (?:usamos|utilizamos)`,
  ],
};

/**
 * Purpose clauses ("in order to", "um … zu", "afin de", "para que", "al fine di", "om … te",
 * "a fim de"): a purpose only in a sentence that itself names the AI system, since they follow
 * any verb ("more effort in order to pay off").
 */
export const PURPOSE_CLAUSE: Sources = {
  en: [String.raw`in order to|so as to|so (?:that )?(?:you|we|our|staff|the team|customers)`],
  de: [String.raw`um ${gap(8)}(?:zu [\p{L}-]+|[\p{L}-]+zu[\p{L}]+en)|damit (?:sie|wir|ihr|du|unsere|unser|die|der|das)`],
  fr: [String.raw`afin (?:de|d${A}|que)|dans le but de|pour que|pour (?:(?:vous|nous|les|le|la|l${A}|leur|lui) ?)?(?!(?:votre|notre|leur|autre|chaque|quatre|hiver|dossier|premier|dernier|entier)(?!\p{L}))\p{L}+(?:er|ir|re)`],
  es: [String.raw`con el (?:fin|objetivo|propósito) de|a fin de|para que|para (?:(?:te|le|les|nos|os|lo|la|los|las) )?(?!(?:cualquier|mayor|hogar|lugar|particular|familiar|auxiliar|titular|popular|mejor|menor|peor|interior|exterior|anterior|posterior|superior|inferior|mujer|alquiler)(?!\p{L}))\p{L}+(?:ar|er|ir)(?:te|le|les|nos|lo|la|los|las)?`],
  it: [String.raw`al fine di|allo scopo di|in modo (?:da|che)|affinché|perché (?:possa|possiate|possano)|per (?:(?:ti|vi|ci|la|lo|li|le|gli) )?\p{L}+(?:are|ere|ire)(?:ti|vi|ci|la|lo|li|le|gli)?`],
  nl: [String.raw`om ${gap(6)}te [\p{L}-]+|zodat|met als doel`],
  pt: [String.raw`a fim de|com o (?:objetivo|intuito|fim|propósito) de|para que|para (?:(?:o|a|os|as|te|lhe|lhes|nos|vos) )?(?!(?:qualquer|lugar|mulher|familiar|particular|popular|melhor|maior|menor|pior|exterior|interior|anterior|posterior|superior|inferior|titular|colher|lar)(?!\p{L}))\p{L}+(?:ar|er|ir)`],
};

/** A heading that names the topic "what it is for": the section under it states the purpose. */
export const PURPOSE_HEADING = lexeme({
  lower: [
    String.raw`purpose|intended (?:use|uses|purpose)|what (?:it|\p{L}+|the [\p{L}-]+|our [\p{L}-]+)(?: is|${A}s| are) (?:for|used for)|what (?:it|\p{L}+|the [\p{L}-]+|our [\p{L}-]+) (?:does|do|can do|can help with|helps with)|how (?:we|you) use|why we use|use cases?|(?:its|the|our) role|role of`,
    String.raw`zweck\p{L}*|einsatzzweck|verwendungszweck|wof(?:ü|u)r \p{L}+|wozu \p{L}+|was (?:kann|macht|tut|leistet) \p{L}+|aufgabe|rolle|anwendungsbereich|einsatzbereich|bestimmungsgemäße\p{L}* \p{L}+|vorgesehene\p{L}* (?:verwendung|nutzung)`,
    String.raw`finalité|à quoi (?:sert|servent)|rôle|(?:usage|utilisation) prévue?|ce que fait|ce qu${A}(?:il|elle) fait|pourquoi nous utilisons|comment nous utilisons|cas d${A}usage`,
    String.raw`para qué sirven?|para qué (?:usamos|utilizamos)|finalidad|propósito|uso previsto|qué hace|cómo (?:usamos|utilizamos)|casos de uso`,
    String.raw`a (?:che )?cosa serv(?:e|ono)|scopo|finalità|uso previsto|destinazione d${A}uso|cosa fa|come (?:usiamo|utilizziamo)|casi d${A}uso`,
    String.raw`waarvoor|doel|beoogd gebruik|wat doet|wat kan|hoe (?:wij|we) ${gap(2)}(?:gebruiken|inzetten)`,
    String.raw`para que serve[m]?|finalidade|uso pretendido|uso previsto|utiliza[çc][ãa]o prevista|o que faz|como (?:usamos|utilizamos)|casos de uso`,
  ],
});

/**
 * What an AI system does, in the third person or after a modal ("it suggests", "the model will
 * flag"): a purpose when the AI system is its subject (see `hasAiSubject`).
 */
export const FUNCTION_VERB: Sources = {
  en: [
      String.raw`${NH}(?:suggests|recommends|drafts|writes|summari[sz]es|answers|translates|transcribes|classifies|categori[sz]es|sorts|ranks|scores|flags|detects|spots|identifies|estimates|predicts|forecasts|calculates|assesses|checks|matches|routes|extracts|reads|tags|generates|produces|highlights|marks|locates|finds|compares|analy[sz]es|monitors|schedules|plans|triages|screens|prioriti[sz]es|measures|counts|corrects|grades|guides|explains|proposes|picks|selects|filters|converts|recogni[sz]es|inspects|reviews|decides|approves|replies|responds|handles|searches|alerts|warns|notifies|looks (?:at|for)|works out|fills in|points out|turns|creates)`,
      String.raw`(?:can|will|may|could|would|then|also|automatically|first|instantly|quickly)(?: also| then| automatically| instantly| quickly)? (?:suggest|recommend|draft|write|summari[sz]e|answer|translate|transcribe|classify|categori[sz]e|sort|rank|score|flag|detect|spot|identify|estimate|predict|forecast|calculate|assess|check|match|route|extract|read|tag|generate|produce|highlight|mark|locate|find|compare|analy[sz]e|monitor|schedule|plan|triage|screen|prioriti[sz]e|measure|count|correct|grade|guide|explain|propose|pick|select|filter|convert|recogni[sz]e|inspect|review|decide|reply|respond|handle|search|alert|warn|notify|look at|look for|work out|fill in|point out|create|tell you|show you|give you)`,
  ],
  de: [
      String.raw`${NH}(?:beantwortet|beantworten|schlägt|schlagen|empfiehlt|empfehlen|erstellt|erstellen|entwirft|entwerfen|fasst|fassen|übersetzt|übersetzen|erkennt|erkennen|markiert|markieren|sortiert|sortieren|prüft|prüfen|bewertet|bewerten|schätzt|schätzen|berechnet|berechnen|ordnet|ordnen|liest|lesen|klassifiziert|klassifizieren|analysiert|analysieren|priorisiert|priorisieren|filtert|filtern|sucht|suchen|findet|finden|vergleicht|vergleichen|überwacht|überwachen|meldet|melden|warnt|warnen|wertet|werten|ermittelt|ermitteln|erfasst|erfassen|kategorisiert|leitet|leiten|sagt|prognostiziert|prognostizieren|korrigiert|gibt|erklärt|beurteilt|kennzeichnet|identifiziert|identifizieren|plant|generiert|generieren|transkribiert)`,
  ],
  fr: [
      String.raw`${NH}(?:répond|répondent|propose|proposent|suggère|suggèrent|recommande|recommandent|rédige|rédigent|résume|résument|traduit|traduisent|transcrit|classe|classent|trie|trient|détecte|détectent|repère|repèrent|signale|signalent|estime|estiment|prédit|prévoit|calcule|calculent|évalue|évaluent|analyse|analysent|vérifie|vérifient|contrôle|identifie|identifient|extrait|extraient|corrige|corrigent|oriente|orientent|priorise|génère|génèrent|compare|surveille|surveillent|lit|lisent|sélectionne|filtre|reconnaît|explique|guide|indique|attribue|planifie)`,
  ],
  es: [
      String.raw`${NH}(?:responde|responden|sugiere|sugieren|recomienda|recomiendan|redacta|redactan|resume|resumen|traduce|traducen|transcribe|clasifica|clasifican|ordena|detecta|detectan|identifica|identifican|señala|estima|estiman|predice|predicen|prevé|calcula|calculan|evalúa|evalúan|analiza|analizan|revisa|revisan|comprueba|extrae|genera|generan|propone|proponen|prioriza|marca|compara|vigila|supervisa|lee|selecciona|filtra|reconoce|explica|guía|localiza|busca|asigna|indica|planifica|corrige)`,
  ],
  it: [
      String.raw`${NH}(?:risponde|rispondono|suggerisce|suggeriscono|consiglia|propone|propongono|redige|riassume|traduce|traducono|trascrive|classifica|classificano|ordina|rileva|rilevano|individua|individuano|segnala|segnalano|stima|stimano|prevede|prevedono|calcola|calcolano|valuta|valutano|analizza|analizzano|verifica|controlla|controllano|estrae|genera|generano|confronta|monitora|legge|seleziona|filtra|riconosce|spiega|guida|identifica|assegna|pianifica|corregge|indica|smista)`,
  ],
  nl: [
      String.raw`${NH}(?:beantwoordt|beantwoorden|stelt|stellen|adviseert|schrijft|vat|vatten|vertaalt|herkent|herkennen|markeert|sorteert|controleert|controleren|beoordeelt|beoordelen|schat|schatten|voorspelt|voorspellen|berekent|berekenen|analyseert|analyseren|classificeert|signaleert|rangschikt|selecteert|zoekt|vindt|vergelijkt|bewaakt|leest|filtert|legt uit|genereert|maakt|geeft|wijst|plant|detecteert|detecteren|corrigeert)`,
  ],
  pt: [
      String.raw`${NH}(?:responde|respondem|sugere|sugerem|recomenda|recomendam|redige|resume|traduz|transcreve|classifica|classificam|ordena|deteta|detecta|detetam|detectam|identifica|identificam|sinaliza|sinalizam|estima|estimam|prevê|preveem|calcula|calculam|avalia|avaliam|analisa|analisam|verifica|extrai|gera|geram|propõe|compara|monitoriza|monitora|lê|seleciona|filtra|reconhece|explica|orienta|indica|assinala|planeia|planeja|corrige)`,
  ],
};

/** A subject that stands for the system in an AI section: a pronoun, or "the tool / das System / l'outil". */
const SYSTEM_SUBJECT = lexeme({
  lower: [
    String.raw`it|she|he|they|this|er|sie|es|il|elle|ils|elles|él|ella|ellos|esso|essa|lui|lei|hij|zij|ze|het|ele|ela|eles`,
    String.raw`(?:the|this|our|an?|der|die|das|dieser|diese|dieses|unser\p{L}*|ein|eine|le|la|l${A}|ce|cet|cette|notre|une?|el|este|esta|nuestr[oa]|una?|il|lo|questo|questa|nostr[oa]|uno|de|deze|dit|onze|een|o|a|este|esta|noss[oa]|um|uma) (?:[\p{L}-]+ ){0,2}?(?:tool|system|model|assistant|engine|software|bot|chatbot|agent|feature|algorithm|service|app|checker|scanner|module|copilot|tutor|planner|platform|programme|program|solution|werkzeug|modell|assistent\p{L}*|algorithmus|funktion|dienst|lösung|outil|système|modèle|moteur|logiciel|fonction|algorithme|solution|herramienta|sistema|modelo|asistente|motor|función|algoritmo|solución|strumento|modello|assistente|funzione|soluzione|systeem|assistent|functie|ferramenta|função|solução|módulo|modulo)`,
  ],
});

/**
 * Automated-decision systems the shared AI_TERMS leave to context ("ein automatisiertes
 * Scoring-System", "un système automatisé", "un sistema automatizado"): they make a sentence and
 * its section about the system for this control.
 */
const AUTOMATED_SYSTEM = lexeme({
  lower: [
    String.raw`(?:automated|automatic|algorithmic) ${gap(2)}(?:systems?|tools?|engines?|checks?|assessments?|scoring|screening|models?|processes|process)`,
    String.raw`automatisiert\p{L}* ${gap(1)}(?:[\p{L}-]*(?:system|verfahren|prüfung|bewertung|scoring|entscheidung|auswertung|analyse)\p{L}*)|scoring${H}(?:system|modell|verfahren)\p{L}*|automatisch\p{L}* ${gap(6)}(?:entschieden|bewertet|geprüft|berechnet|ausgewertet)`,
    String.raw`(?:système|traitement|outil|dispositif|algorithme|modèle)s? ${gap(1)}(?:automatisée?s?|automatiques?)|décidée?s? automatiquement`,
    String.raw`(?:sistema|proceso|tratamiento|herramienta|modelo|motor)s? ${gap(1)}(?:automatizad[oa]s?|automátic[oa]s?)`,
    String.raw`(?:sistem[ai]|process[oi]|strument[oi]|modell[oi]|trattament[oi]) ${gap(1)}(?:automatizzat[oi]|automatic[oi])`,
    String.raw`geautomatiseerde? ${gap(1)}(?:systeem|systemen|beoordeling|controle|verwerking|model|besluit\p{L}*)|automatisch\p{L}* ${gap(4)}(?:beoordeeld|besloten|berekend)`,
    String.raw`(?:sistema|processo|ferramenta|modelo|motor|tratamento)s? ${gap(1)}(?:automatizad[oa]s?|automátic[oa]s?)`,
  ],
});

/** What a system works from: "based on", "auf Grundlage", "en fonction de", "con base en", "sulla base di", "op basis van", "com base em". */
const BASIS = lexeme({
  lower: [
    String.raw`based on|on the basis of|according to|auf (?:basis|grundlage) (?:von|der|des|ihrer|ihres)|anhand|sur la base d(?:e|es|u)|en fonction d(?:e|es|u)|à partir d(?:e|es|u)|con base en|en base a|a partir de|sulla base d(?:i|ei|ella|el)|in base a|op basis van|aan de hand van|com base (?:em|n[oa]s?)|a partir d[eo]s?`,
  ],
});

/** Cookie notices say what cookies are "used to" do; that is not the AI system's purpose. */
const COOKIE = lexeme({ lower: [String.raw`cookies?`] });

/**
 * People as the subject of a function verb: "a claims handler checks", "you review", "unsere
 * Ärztinnen prüfen". Then the verb is what people do, not the system.
 */
const HUMAN_SUBJECT: Sources = {
  en: [
      String.raw`you|we|i|us|staff|team|teams|people|humans?|persons?|members?|handlers?|officers?|clinicians?|doctors?|nurses?|reviewers?|editors?|advis[eo]rs?|specialists?|experts?|employees?|colleagues?|radiologists?|lawyers?|teachers?|caseworkers?|underwriters?|assessors?|inspectors?|engineers?|developers?|recruiters?|customers?|users?|readers?|patients?|someone|somebody|man|woman`,
  ],
  de: [
      String.raw`sie|wir|ich|du|ihr|team|mitarbeiter\p{L}*|sachbearbeiter\p{L}*|ärzt\p{L}*|arzt|mensch\p{L}*|person\p{L}*|kund\p{L}*|prüfer\p{L}*|redaktion|gutachter\p{L}*`,
  ],
  fr: [
      String.raw`vous|nous|je|on|équipe|équipes|conseill\p{L}+|médecins?|humains?|personnes?|agents?|collaborat\p{L}+|gestionnaires?|clients?|experts?`,
  ],
  es: [
      String.raw`usted|ustedes|nosotros|yo|equipo|equipos|personas?|humanos?|médicos?|asesor\p{L}*|gestor\p{L}*|clientes?|expertos?|empleados?|técnicos?`,
  ],
  it: [
      String.raw`voi|noi|io|squadra|team|persone?|umani?|medic[oi]|consulent\p{L}+|operator\p{L}+|clienti|espert[oi]|periti|perito|tecnic[oi]`,
  ],
  nl: [
      String.raw`u|je|jij|wij|we|ik|team|medewerker\p{L}*|mensen|mens|persoon|arts|artsen|adviseur\p{L}*|klant\p{L}*|experts?|behandelaar\p{L}*`,
  ],
  pt: [
      String.raw`você|vocês|nós|eu|equipa|equipe|pessoas?|humanos?|médicos?|gestor\p{L}*|clientes?|especialistas?|técnicos?|colaborador\p{L}*`,
  ],
};

/** Relative pronouns that open a clause whose subject is what came just before. */
const RELATIVE = /^(?:which|that|who|der|die|das|welche[rs]?|qui|que|che|cui|die|dat|welke|que)$/iu;

/** A passive auxiliary in German or Dutch. */
const PASSIVE = /(?<![\p{L}])(?:wird|werden|wurde|wurden|worden|wordt|werd)(?![\p{L}])/iu;

/** Languages whose main clauses put the verb second, so the subject may follow it ("Dann prüft die KI"). */
const VERB_SECOND = new Set(['de', 'nl']);

/** Words a subject may stand before its verb, and after it in verb-second order. */
const SUBJECT_BEFORE_WORDS = 8;
const SUBJECT_AFTER_WORDS = 2;

type Tier = 'sentence' | 'section' | 'page';

/** How a sentence is about the AI system: it names AI, its section does, or the page does. */
function tierOf(d: Discourse, s: Sentence): Tier | undefined {
  if (namesSystem(d, s)) return 'sentence';
  if (s.section === null) return undefined;
  if (aiContext(d, s.section)) return 'section';
  if ((d.pageAboutAi || d.documentsSystem) && (s.section.landmark === 'main' || s.section.landmark === 'body')) return 'page';
  return undefined;
}

/** A section is about AI when `isAiSection` says so or its parent's own sentences name AI (an h1 introducing the system). */
function aiContext(d: Discourse, section: Section): boolean {
  if (isAiSection(d, section) || section.sentences.some((s) => namesSystem(d, s))) return true;
  const parent = section.parent;
  return parent !== null && parent.sentences.some((s) => namesSystem(d, s));
}

const automated = new WeakMap<Sentence, boolean>();

/** The sentence names AI (`mentionsAi`) or an automated-decision system. */
function namesSystem(d: Discourse, s: Sentence): boolean {
  if (mentionsAi(d, s) || refersByAlias(d, s)) return true;
  let found = automated.get(s);
  if (found === undefined) {
    found = hitsIn(s, AUTOMATED_SYSTEM).length > 0;
    automated.set(s, found);
  }
  return found;
}

/** The purpose that decided, with how it was found. */
interface Purpose {
  /** The span quoted: the sentence stating the purpose. */
  hit: Hit;
  /** The heading it sits under, when a purpose heading decided. */
  heading?: Sentence;
}

const purposes = new WeakMap<Discourse, Purpose | null>();

/** The page's purpose statement, memoised per discourse. */
export function purposeOf(d: Discourse): Purpose | undefined {
  let found = purposes.get(d);
  if (found === undefined) {
    found = findPurpose(d) ?? null;
    purposes.set(d, found);
  }
  return found ?? undefined;
}

function spanOf(s: Sentence): Hit {
  return { start: s.start, end: s.end };
}

function findPurpose(d: Discourse): Purpose | undefined {
  if (ownSystemOf(d) === undefined) return undefined;
  const candidates: { s: Sentence; tier: Tier }[] = [];
  for (const s of d.sentences) {
    const tier = tierOf(d, s);
    if (tier === undefined) continue;
    if (hitsIn(s, COOKIE).length > 0 || hitsIn(s, REPORTING).length > 0) continue;
    candidates.push({ s, tier });
  }
  const lang = d.corpus.page.lang;
  const predicate = inLanguage(PURPOSE_PREDICATE, lang);
  const verbs = inLanguage(FUNCTION_VERB, lang);
  const clause = inLanguage(PURPOSE_CLAUSE, lang);
  const affirmed = (s: Sentence) => (hit: Hit) => !isNegated(d, s, hit.start, hit.end);
  // 1. A purpose predicate.
  for (const { s, tier } of candidates) {
    if (hitsIn(s, predicate).some(affirmed(s))) return { hit: spanOf(s) };
    if (tier === 'sentence' && hitsIn(s, clause).some(affirmed(s))) return { hit: spanOf(s) };
  }
  // 2. A purpose heading over content, in an AI section.
  for (const section of d.sections) {
    const heading = section.heading;
    if (heading === null || section.sentences.length === 0) continue;
    if (!hitsIn(heading, PURPOSE_HEADING).some(affirmed(heading))) continue;
    if (!aiContext(d, section) && !((d.pageAboutAi || d.documentsSystem) && section.landmark === 'main')) continue;
    const first = section.sentences.find((s) => hitsIn(s, COOKIE).length === 0);
    if (first !== undefined) return { hit: spanOf(first), heading };
  }
  // 3. A function verb whose subject is the AI system.
  // 4. What the system does, in the passive with the AI as its agent and what it works from:
  // "Estas sugestões são escolhidas por inteligência artificial com base nos produtos que você
  // visitou", "Recommendations are selected by our AI based on your orders". A label alone
  // ("AI-generated image", "written with AI") names no basis and is no role.
  for (const { s, tier } of candidates) {
    if (tier === 'page') continue;
    if (hitsIn(s, verbs).some((verb) => affirmed(s)(verb) && hasAiSubject(d, s, verb, tier))) return { hit: spanOf(s) };
  }
  // 3b. Any action verb right after the system as subject ("El sistema clasifica la solicitud",
  // "O sistema atribui-lhe um nível", "Ein Programm vergleicht den neuen Stand"): the verb lists
  // above are never complete, but a named system followed by a finite verb is.
  for (const { s, tier } of candidates) {
    if (tier === 'page') continue;
    const verb = systemThenVerb(d, s);
    if (verb !== undefined && affirmed(s)(verb)) return { hit: spanOf(s) };
  }
  for (const { s, tier } of candidates) {
    if (tier !== 'sentence') continue;
    const made = scanSentence(s, MADE_BY_AI).find(affirmed(s));
    if (made !== undefined && scanSentence(s, BASIS).some((basis) => basis.start >= made.end && affirmed(s)(basis))) return { hit: spanOf(s) };
  }
  return undefined;
}

/** Clause breaks a subject does not reach across. */
const CLAUSE = /[,;:–—()]/u;

/**
 * Whether the AI system is the subject of the verb at `verb`: an AI term or the system's name
 * in the clause before the verb (at most SUBJECT_BEFORE_WORDS words) or right after it
 * (verb-second order: "Anschließend prüft die KI"); or, in an AI section, a pronoun or system
 * noun there, or the verb opening the sentence (pro-drop: "Responde a preguntas …").
 */
function hasAiSubject(d: Discourse, s: Sentence, verb: Hit, tier: Tier): boolean {
  const before = clauseBefore(s.text.slice(0, verb.start - s.start));
  const around = [before];
  // German and Dutch passives end on a participle that looks like the third person ("Dieser
  // Text wurde mit KI erstellt"): there the AI is the means, not the subject.
  if (PASSIVE.test(before) && /t$/u.test(s.lower.slice(verb.start - s.start, verb.end - s.start))) return false;
  if (VERB_SECOND.has(d.corpus.page.lang?.slice(0, 2).toLowerCase() ?? '')) {
    around.push(s.text.slice(verb.end - s.start).split(CLAUSE)[0]!.trim().split(' ').slice(0, SUBJECT_AFTER_WORDS + 1).join(' '));
  }
  if (around.some((text) => firstAi(d, text))) return true;
  // A sentence that names the system itself ("… un outil de score qui prend une décision
  // automatisée : … il évalue …") lets a pronoun or a system noun stand for it, as a section does.
  if (tier === 'page') return false;
  if (before === '') return true;
  // A relative pronoun right before the verb, in a sentence naming the system: "un sistema di
  // intelligenza artificiale, FitMatch 4.0, che confronta …".
  if (tier === 'sentence' && RELATIVE.test(before.split(' ').at(-1)!)) return true;
  if (around.some((text) => findAll(SYSTEM_SUBJECT, text, text.toLowerCase()).length > 0)) return true;
  // The product's own name, as the site's header or title gives it ("… and gitmint drafts a commit message").
  const subject = before.split(' ').at(-1)!.toLowerCase();
  const human = inLanguage(HUMAN_SUBJECT, d.corpus.page.lang);
  return findAll(human, subject, subject).length === 0 && siteNames(d).has(subject);
}

/**
 * The system as the subject: a system noun with a determiner ("the model", "das System", "o
 * sistema"), one of the page's aliases for it ("el orientador") or its name; an AI term ("la IA").
 */
const SYSTEM_AS_SUBJECT = lexeme({
  lower: [
    String.raw`(?:(?:the|this|our|der|die|das|dieses|dieser|unser\p{L}*|ein|eine|le|la|ce|cet|cette|notre|un|une|el|este|esta|nuestr[oa]|un|una|il|lo|questo|questa|nostr[oa]|uno|de|deze|dit|onze|een|het|o|a|noss[oa]|um|uma) (?:[\p{L}-]+ )?|l${A})(?:${SYSTEM_NOUNS})`,
  ],
});

/** Verbs that say what the system is or runs on, not what it does: "uses", "is based on", "works with". */
const NOT_AN_ACTION =
  /^(?:is|are|was|were|be|been|being|get|not|never|only|has|have|had|will|would|can|could|may|might|must|should|does|did|uses|works|runs|relies|ist|sind|war|waren|wurde|wurden|wird|werden|hat|haben|kann|können|soll|sollen|muss|darf|nutzt|verwendet|basiert|beruht|arbeitet|funktioniert|läuft|est|sont|était|a|ont|sera|peut|doit|utilise|fonctionne|repose|es|son|fue|era|ha|han|será|puede|debe|está|usa|utiliza|funciona|emplea|se|è|sono|era|hanno|sarà|può|deve|viene|utilizza|funziona|si|zijn|wordt|werd|heeft|hebben|kan|zal|moet|gebruikt|werkt|is|é|são|foi|tem|pode|está|usa|utiliza|funciona|basa|basan|basano|baseia|baseiam|fonda|fondano|funda|fundan|fundamenta|consiste|consta|compone|componen|compose|trata|tratta|appartiene|pertenece|pertence|gehört|appartient|behoort)$/u;

/** Words that may stand between the subject and its verb: an adverb or a clitic pronoun ("then", "automatisch", "le", "lhe", "vi"). */
const BETWEEN =
  /^(?:also|then|first|automatically|instantly|now|auch|dann|zuerst|automatisch|sofort|aussi|puis|ensuite|automatiquement|d['’]abord|también|luego|después|automáticamente|primero|anche|poi|quindi|automaticamente|prima|ook|dan|eerst|daarna|também|depois|primeiro|le|les|lui|nous|vous|me|te|se|lo|la|los|las|les|nos|os|ti|vi|ci|gli|lhe|lhes|u|je|ons|hem|haar|ihnen|ihm|ihr|uns|euch|ihnen)$/u;

/** Adjectives that follow their noun in the Romance languages ("el sistema automático", "il modello linguistico"): skipped, not taken for the verb. */
const POSTNOMINAL =
  /^(?:automati\p{L}*|automáti\p{L}*|automatiz\p{L}*|automatis\p{L}*|informati\p{L}*|informáti\p{L}*|digital\p{L}*|intelligent\p{L}*|inteligente\p{L}*|artificial\p{L}*|artificiel\p{L}*|artificiale|intern[oae]s?|interne?s?|propi[oa]s?|propri[oa]|própri[oa]|statisti\p{L}*|estadísti\p{L}*|estatísti\p{L}*|generativ\p{L}*|génératif|générative|linguisti\p{L}*|lingüísti\p{L}*|linguísti\p{L}*|predittiv\p{L}*|predictiv\p{L}*|prédicti\p{L}*|preditiv\p{L}*|virtu\p{L}*|conversa\p{L}*|nuev[oa]|nuov[oa]|nouvel\p{L}*|nouveau|nov[oa]|online|en línea|in linea|basad[oa]|basat[oa]|basé[e]?|baseado|baseada)$/u;

/** A finite verb's ending in the page's language: "suggests", "vergleicht", "classe", "clasifica", "atribui", "schat". */
const FINITE: Readonly<Record<string, RegExp>> = {
  en: /^(?!(?:this|thus|always|perhaps|across|unless|towards|besides|less|news|analysis|basis|process|access|its)$)\p{L}{3,}s$/u,
  de: /^(?!(?:nicht|jetzt|selbst|erst|meist|fast|zuletzt|bereits|sonst|zunächst)$)\p{L}{3,}t$/u,
  nl: /^(?!(?:niet|niets|altijd|soms|eerst|meest|vooral|straks)$)\p{L}{3,}t$/u,
  fr: /^\p{L}{3,}(?:e|t|d)$/u,
  es: /^\p{L}{3,}(?:a|e|á|é)$/u,
  it: /^\p{L}{3,}(?:a|e|à)$/u,
  pt: /^\p{L}{3,}(?:a|e|i|á|ê)(?:-(?:lhe|lhes|o|a|os|as|se|nos))?$/u,
};

/** Subject pronouns that open a sentence or a clause after a colon about the system ("Sie" only with a verb in -t: "Sie prüfen" is the reader). */
const SUBJECT_PRONOUN: Readonly<Record<string, RegExp>> = {
  en: /(?:^|[:;] )(it)(?= )/u,
  de: /(?:^|[:;] )(er|sie|es)(?= )/u,
  fr: /(?:^|[:;] )(il|elle)(?= )/u,
  nl: /(?:^|[:;] )(hij|zij|ze)(?= )/u,
};

/** A sentence (not a heading) opening on a word and then a determiner of its object, in the pro-drop languages: a verb with its object. */
const VERB_THEN_OBJECT: Readonly<Record<string, RegExp>> = {
  es: /^(\p{L}+) (?:el|la|los|las|un|una|unos|unas|cada|todos|todas|su|sus|tu|tus|nuestro|nuestra|nuestros|nuestras|cualquier)(?= )/u,
  it: /^(\p{L}+) (?:il|lo|la|i|gli|le|un|uno|una|ogni|tutti|tutte|suo|sua|suoi|sue|tuo|tua|tuoi|tue|vostro|vostra|vostri|vostre|nostro|nostra|nostri|nostre|qualsiasi|l['’])(?= |\p{L})/u,
  pt: /^(\p{L}+(?:-(?:lhe|lhes|o|a|os|as|se|nos))?) (?:o|a|os|as|um|uma|uns|umas|cada|todos|todas|seu|sua|seus|suas|nosso|nossa|nossos|nossas|qualquer)(?= )/u,
};
/** Sentence openers that end like verbs but are not: conjunctions, prepositions, pronouns, adverbs. */
const NOT_A_VERB_OPENING =
  /^(?:se|si|come|como|quando|cuando|dove|donde|onde|perché|porque|mentre|mientras|anche|ogni|cada|alla|alle|nella|nelle|della|delle|dalla|dalle|sulla|sulle|questa|queste|quella|quelle|esta|este|essa|esse|aquela|aquele|toda|todas|tutte|ecco|ora|ahora|agora|entre|sobre|desde|durante|mediante|contra|hasta|sempre|siempre|pure|ancora|dopo|prima|oggi|hoy|hoje|nessuna|ninguna|nenhuma|alcune|algunas|algumas|molte|muchas|muitas|poche|pocas|poucas|alguna|alguma|qualche|una|uma|uno|la|le|lo|de|da|di|que|che|qualquer|cualquier|qualsiasi|dentro|fuera|fora|fuori|bene|bien|bem|mais|più|muy|molto|muito|tanto|cosa|quale|cual|qual|chi|quien|quem|lei|ele|ela|ella|elle|estes|tra|fra|para|pela|pelo|nela|nele|desta|deste|dessa|desse|nessa|nesse|numa|ante|tras|tanto|solo|sólo|apenas|infine|inoltre|quindi|dunque|entonces|então|depois|después|luego|ahí|aqui|aquí|qui|lì|la|alla|sulla|pela|nella|grazie|gracias|obrigado|segue|sigue|siga|veja|vea|guarda|consulte|consulta|scopri|descubre|descubra|scarica|descarga|baixe|leia|lea|leggi|visite|visita|escribe|scrivi|escreva|chiama|llama|ligue|contatta|contacta|contacte|prenota|reserva|agende|compila|rellena|preencha|clicca|pulsa|clique|premi|selecciona|seleziona|selecione|inserisci|introduce|insira|accedi|accede|acesse|entra|entre|completa|usa|utiliza|utilizza|prova|prueba|experimente|ricorda|recuerda|lembre)$/u;

/** Modal verbs (third person) that a system's action follows as an infinitive. */
const MODAL = /^(?:can|will|may|could|kann|wird|soll|peut|pourra|va|puede|podrá|può|potrà|kan|zal|pode|poderá|vai)$/u;
/** The infinitive after a modal, per language: next word in the Romance languages and English, the clause's last word in German and Dutch. */
const INFINITIVE: Readonly<Record<string, RegExp>> = {
  en: /^ (?:also |then |automatically |quickly )?([a-z]{3,})(?![\p{L}])/u,
  fr: /^ (?:aussi |ensuite |automatiquement |vous |les |le |la |l['’] ?)?(\p{L}{2,}(?:er|ir|re))(?![\p{L}])/u,
  es: /^ (?:a |también |automáticamente |le |te |les |lo |la )?(\p{L}{2,}(?:ar|er|ir)(?:te|le|les|lo|la|se)?)(?![\p{L}])/u,
  it: /^ (?:anche |automaticamente |ti |vi |la |lo |le |gli )?(\p{L}{2,}(?:are|ere|ire)(?:ti|vi|la|lo|le|gli)?)(?![\p{L}])/u,
  pt: /^ (?:também |automaticamente |lhe |o |a |te )?(\p{L}{2,}(?:ar|er|ir)(?:-(?:lhe|o|a|os|as))?)(?![\p{L}])/u,
  de: /^ (?:[\p{L}\d-]+ ){0,8}?(\p{L}{3,}en)(?=[.,;:!?]|$)/u,
  nl: /^ (?:[\p{L}\d-]+ ){0,8}?(\p{L}{3,}en)(?=[.,;:!?]|$)/u,
};

/** How many words after the subject the verb may stand (an adverb or clitic between). */
const VERB_AFTER_WORDS = 2;

/** The finite verb right after the system named as subject, or undefined. */
function systemThenVerb(d: Discourse, s: Sentence): Hit | undefined {
  const lang = d.lang;
  const finite = FINITE[lang];
  if (finite === undefined) return undefined;
  const subjects = [...hitsIn(s, SYSTEM_AS_SUBJECT), ...hitsIn(s, AI_TERMS), ...aliasSubjects(d, s)];
  // A pronoun opening the sentence, in a section about the system, stands for it when its verb agrees:
  // "Sie wandelt den Ton in Text um" (not the polite "Sie können"), "Il classe", "It flags", "Hij deelt".
  const pronoun = SUBJECT_PRONOUN[lang]?.exec(s.lower) ?? null;
  if (pronoun !== null) subjects.push({ start: s.start + pronoun.index + pronoun[0].length - pronoun[1]!.length, end: s.start + pronoun.index + pronoun[0].length });
  // Pro-drop: a sentence opening on a finite verb with its object ("Classifica ogni spesa …",
  // "Separa os casos por assunto", "Explica as linhas da sua fatura").
  const verbThenObject = VERB_THEN_OBJECT[lang];
  if (verbThenObject !== undefined && !s.isHeading) {
    const opening = verbThenObject.exec(s.lower);
    if (opening !== null && finite.test(opening[1]!) && !NOT_A_VERB_OPENING.test(opening[1]!) && !NOT_AN_ACTION.test(opening[1]!)) {
      return { start: s.start, end: s.start + opening[1]!.length };
    }
  }
  for (const subject of subjects) {
    const rest = s.lower.slice(subject.end - s.start);
    const words = rest.split(/(?=[,;:()])|\s+/u).filter((w) => w !== '').slice(0, VERB_AFTER_WORDS + 1);
    let from = 0;
    for (const word of words) {
      const at = rest.indexOf(word, from);
      from = at + word.length;
      if (BETWEEN.test(word) || POSTNOMINAL.test(word)) continue;
      // A modal and the infinitive it governs: "It can reset your password", "Il peut répondre",
      // "Er kann Ihre Fragen beantworten" (the infinitive closes the German or Dutch clause).
      if (MODAL.test(word)) {
        const infinitive = INFINITIVE[lang]?.exec(rest.slice(from));
        if (infinitive !== null && infinitive !== undefined && !NOT_AN_ACTION.test(infinitive[1]!)) {
          const start = subject.end + from + infinitive.index + infinitive[0].length - infinitive[1]!.length;
          return { start, end: start + infinitive[1]!.length };
        }
        break;
      }
      // A capital is a name ("el modelo Llama 3.1"), not a verb.
      const original = s.text.slice(subject.end - s.start + at, subject.end - s.start + at + word.length);
      if (!NOT_AN_ACTION.test(word) && finite.test(word) && original === word) return { start: subject.end + at, end: subject.end + at + word.length };
      break;
    }
  }
  return undefined;
}

/** The page's aliases and names for its system where they stand in the sentence. */
function aliasSubjects(d: Discourse, s: Sentence): Hit[] {
  const out: Hit[] = [];
  for (const name of [...d.systemAliases, ...d.systemNames]) {
    for (let at = s.lower.indexOf(name); at >= 0 && out.length < 8; at = s.lower.indexOf(name, at + 1)) {
      const after = s.lower[at + name.length];
      if (after === undefined || !/[\p{L}\d]/u.test(after)) out.push({ start: s.start + at, end: s.start + at + name.length });
    }
  }
  return out;
}

const names = new WeakMap<Discourse, Set<string>>();

/** The words of the page's title and its header landmark (site and product names), lower-cased, memoised. */
function siteNames(d: Discourse): Set<string> {
  let found = names.get(d);
  if (found === undefined) {
    found = new Set();
    for (const s of d.sentences) {
      const title = s.blockIndex === -1 && d.corpus.segments[0]?.where === 'the title' && s.start >= d.corpus.segments[0].start && s.end <= d.corpus.segments[0].end;
      if (!title && s.section?.landmark !== 'header') continue;
      for (const word of s.lower.split(/[^\p{L}\d-]+/u)) if (word.length >= 3) found.add(word);
    }
    names.set(d, found);
  }
  return found;
}

/** The last clause before a position, at most SUBJECT_BEFORE_WORDS words. */
function clauseBefore(text: string): string {
  const parts = text.split(CLAUSE);
  return parts[parts.length - 1]!.trim().split(' ').slice(-SUBJECT_BEFORE_WORDS).join(' ');
}

function firstAi(d: Discourse, text: string): boolean {
  const lower = text.toLowerCase();
  return findAll(AI_TERMS, text, lower).length > 0 || findAll(AUTOMATED_SYSTEM, text, lower).length > 0 || d.systemNames.some((name) => lower.includes(name));
}

export const PURPOSE_EXAMPLES = [
  'the assistant is designed to',
  'we use AI to',
  'its job is to',
  'Intended use',
  'Der Chatbot dient dazu',
  "l'IA sert à",
  'la IA se utiliza para',
  'serve a',
  'is bedoeld om',
  'serve para',
];

/** The same subjects as URL path words of a visible link. */
const PURPOSE_HREF = /intended[-_]use|system[-_]purpose|how[-_]we[-_]use[-_](?:ai|artificial[-_]intelligence)|use[-_]of[-_]ai/;

const WHAT = 'statement of the system purpose, intended use or role';

/** The outcomes of this control. */
export const outcomes = {
  /** A purpose or role statement about the disclosed AI system; the evidence quotes its sentence. */
  stated: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'Purpose/role statement', hit),
  /** A purpose heading over content about the AI system; the evidence names the heading and quotes the content. */
  underHeading: (corpus: Corpus, heading: Sentence, hit: Hit): Outcome =>
    quoted(corpus, 'pass', `Purpose/role section "${heading.text.slice(0, 60)}"`, hit),
  /** A visible link whose href names the purpose or intended use (not followed), on a page that discloses AI. */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'Purpose documentation linked (not followed)', link),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** Nothing found in a page whose content is in the static HTML (or no AI system is disclosed). */
  notStated: (): Outcome => notFound(WHAT, { examples: PURPOSE_EXAMPLES }),
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
    const discourse = discourseOf(page);
    const purpose = purposeOf(discourse);
    if (purpose !== undefined) {
      return purpose.heading === undefined ? outcomes.stated(corpus, purpose.hit) : outcomes.underHeading(corpus, purpose.heading, purpose.hit);
    }
    if (ownSystemOf(discourse) !== undefined) {
      const link = corpus.targets.find((target) => target.source === 'link' && PURPOSE_HREF.test(target.lower));
      if (link !== undefined) return outcomes.linked(corpus, link);
    }
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notStated();
  },
};
