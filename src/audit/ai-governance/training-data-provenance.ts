// ai-governance.training-data-provenance (Map): the page discloses training-data, dataset-source,
// data-origin, or dataset-provenance information.
//
// Read on the page's discourse (see discourse.ts), for an AI system the page discloses
// (`disclosureOf`): a page that only reports on AI, or whose AI wording is hidden or negated,
// documents no system of its own.
//
// A training statement is a training cue, not negated, in an AI-related sentence, in a sentence
// opening on a pronoun right after one about a model ("It was trained on …"), or under a
// "Training data" heading (machine learning's own term) on a page that discloses AI:
//
// - a training verb with its data preposition, in any of the seven languages: "trained on",
//   "fine-tuned on", "learned from", "tuned with", "wurde mit … trainiert" (verb-final),
//   "a été entraîné sur", "se entrenó con", "è stato addestrato su", "is getraind op",
//   "foi treinado com"; or "X are used to train the model";
// - a training-data noun ("training data", "Trainingsdaten", "données d'entraînement", …) that
//   the sentence goes on to describe ("consists of", "includes", "stammen aus").
// - by its shape where the verb is new (issue 21): the agent of a passive between the verb and its
//   data ("afinado pela Divisão de Sistemas de Informação com"); an adjustment or training
//   sentence ending on a colon, whose list counts something; a model developed or built from
//   counted records or a history ("sviluppato … a partire dallo storico di 410.000 prestiti");
//   trained on thousands of records, whatever the subject is called.
//
// Its context is the statement and the few sentences after it in its section, or the whole
// section under a training heading ("Training data", "What it learned from", "Womit das System
// trainiert wurde", "Aanvullende training", or a question about what the system was built or
// adjusted with: "Op welke gegevens is het model gebouwd?"). In that context a category is the kind of content
// the model learned from (the object of the training verb, a "consists of" object, a list item)
// once quantities, determiners and generic data words are set aside, so "trained on data
// obtained from HM Land Registry" names a source but no category; a source is where the data
// came from ("licensed from", "donated by", "from our own job board", "stammen aus",
// "issues de", "cedidos por", "messi a disposizione da", "beschikbaar gesteld", "disponibilizadas
// pelo"), or a named organisation after "from" ("from HM Land Registry"; inside the training
// object a genitive too: "de clientes do Banco Atlântida"). This control passes on a category or a source (anything concrete about the training
// data or its origin), or on a visible link naming training data; training-data-categories-and-
// sources needs both. The analysis is built once per discourse (`trainingDataOf`).
import type { Control, Outcome } from '../control.ts';
import type { Page } from '../page.ts';
import { isReported } from './ai-disclosure-notice.ts';
import { ownSystemOf } from './own-system.ts';
import { discourseOf, hitsIn, isAiSentence, isNegated, mentionsAi, type Discourse, type Section, type Sentence } from './discourse.ts';
import { corpusOf, linked, notFound, quoted, scriptRendered, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { A, H, findAll, lexeme, type Lexeme } from './lexicon.ts';

// ---------------------------------------------------------------------------------------------
// Lexicon (EN, DE, FR, ES, IT, NL, PT)

/** Training verbs, inflected, that take their data after a preposition ("trained on", "entrenado con"). */
const TRAIN_VERB = String.raw`(?:(?:pre|re|fine)${H}?)?(?:trained|training|trains?|tuned|learned|learnt|learns|taught)|calibrated|calibrée?s?|calibrad[oa]s?|calibrat[oaie]|kalibriert|gekalibreerd|(?:vor|nach|neu|weiter|fein)?trainier\p{L}*|angelernt|gelernt|lernte|(?:pré|ré)?-?entraîn(?:é|ée|és|ées|er|ant|ons)|affiné(?:e|s|es)?|appris|(?:pre|re)?entren(?:ad[oa]s?|ó|aron|ar|amos|an?|ando)|aprendi(?:ó|eron|do)|(?:pre|ri)?addestrat[oaie]|addestr(?:are|ano|iamo|ando)|allenat[oaie]|imparato|(?:bij|na|voor|her)?getraind|train(?:en|t|de|den)|geleerd|(?:pré-?|re)?trein(?:ad[oa]s?|ou|aram|ar|amos|ámos|ando)|aprend(?:eu|eram|ido)`;
/**
 * Prepositions that introduce training data after the verb. ("in" and "an" are left out: "trained
 * in first aid", "trained an assistant"; so is "von", the agent of a German passive: "entwickelt
 * und trainiert von der Nordlicht GmbH".)
 */
const DATA_PREP = String.raw`on|upon|with|using|from|mit|auf|anhand|aus|sur|avec|à partir d(?:e|es|u|${A})|grâce à|au moyen d(?:e|es|u|${A})|de|des|du|d${A}|con|en|sobre|a partir de|mediante|usando|su|sui|sugli|sulla|sulle|sul|col|coi|con i|con le|da|dai|dalle|dagli|utilizzando|op|met|aan de hand van|uit|van|com|em|nos|nas|no|na|pelos|pelas`;
/** Verb-final order (German, Dutch subordinate and perfect): the preposition before the verb. */
const FINAL_PREP = lexeme({ lower: [String.raw`mit|auf|anhand|met|op|aan de hand van`] });
const FINAL_VERB_LANGS = /^(?:de|nl)/;

/**
 * Who did the training, in a passive: "afinado pela Divisão de Sistemas de Informação com …",
 * "trained by our data team on …" (up to seven words; the data preposition must still follow).
 */
const AGENT = String.raw`(?:(?:by|von|durch|par|por|pel[oa]s?|dal|dalla|dall${A}|dai|door) (?:[\p{L}'’-]+ ){1,7}?)?`;
/**
 * What may stand between a training verb and its preposition: its agent, up to three words, a
 * purpose and a year ("trained the current model in 2024 on", "fine-tuned the model for this task on").
 */
const TRAIN_GAP = String.raw`${AGENT}(?:[\p{L}\d.'’-]+ ){0,3}?(?:for (?:this|the|that|our|its) (?:\p{L}+ )?(?:task|purpose|job|use|role)s? )?(?:(?:in|im|en|nel|em) (?:\d{4}|\p{L}+ \d{4}) )?`;
const TRAIN_FORWARD = lexeme({ lower: [String.raw`(?:${TRAIN_VERB}) ${TRAIN_GAP}(?:${DATA_PREP})`] });
const TRAIN_VERB_ONLY = lexeme({ lower: [TRAIN_VERB] });
/** "X are used to train the model": the data is the clause before the cue. */
const USED_TO_TRAIN = lexeme({
  lower: [
    // Fine-tuning and adaptation data count as training data ("used to adapt the model").
    String.raw`(?:used|utili[sz]ed|employed|fed) (?:\p{L}+ ){0,2}?(?:to (?:re${H}?|fine${H}?)?(?:train|tune|teach|adapt)|for (?:re${H}?|fine${H}?)?(?:training|tuning|adaptation))`,
    String.raw`(?:verwendet|genutzt|eingesetzt) (?:\p{L}+ ){0,3}?um (?:\p{L}+ ){0,3}?zu (?:trainieren|anpassen)`,
    String.raw`utilisé(?:e|s|es)? pour (?:entraîner|l${A}entraînement|l${A}apprentissage|adapter|l${A}adaptation|affiner)`,
    String.raw`(?:utilizad|usad|empleado)[oa]s? para (?:entrenar|el entrenamiento|adaptar|ajustar|la adaptación)`,
    String.raw`(?:utilizzat|usat|impiegat)[oaie] per (?:addestrare|l${A}addestramento|adattare|l${A}adattamento)`,
    String.raw`gebruikt (?:om|voor) (?:\p{L}+ ){0,3}?(?:te trainen|training|het trainen|aan te passen|de aanpassing)`,
    String.raw`(?:usad|utilizad|empregad)[oa]s? para (?:treinar|o treinamento|o treino|adaptar|ajustar)`,
  ],
});
/**
 * The training or adaptation named first, the data after it or inside the clause: "Für die
 * Anpassung haben wir folgende Daten verwendet", "Zum Training wurden 20.000 Briefe genutzt",
 * "Pour l'entraînement, nous avons utilisé …", "We adapted the base model using …". `lead` is the
 * part before the object (see `TRAIN_PURPOSE_LEAD`).
 */
const TRAIN_PURPOSE = lexeme({
  lower: [
    String.raw`(?:zum|zur|für das|für die) (?:training|trainieren|anlernen|anpassung|feinabstimmung|nachtraining|fine${H}tuning) (?:\p{L}+ ){0,6}?(?:verwendet|genutzt|eingesetzt|benutzt|herangezogen)`,
    String.raw`pour (?:l${A}entraînement|l${A}apprentissage|l${A}adaptation|l${A}affinage),? (?:\p{L}+ ){0,3}?(?:avons utilisé|a été utilisé|ont été utilisé)\p{L}*`,
    String.raw`para (?:el entrenamiento|la adaptación|el ajuste),? (?:\p{L}+ ){0,3}?(?:utilizamos|usamos|se (?:utilizaron|usaron|utilizó|usó))`,
    String.raw`per (?:l${A}addestramento|l${A}adattamento),? (?:\p{L}+ ){0,3}?(?:abbiamo (?:usato|utilizzato)|sono stat[ie] (?:usat|utilizzat)[ie])`,
    String.raw`voor (?:de training|het trainen|de aanpassing),? (?:\p{L}+ ){0,3}?(?:gebruikten|gebruiken|hebben (?:we|wij) (?:\p{L}+ ){0,3}?gebruikt|zijn (?:\p{L}+ ){0,3}?gebruikt)`,
    String.raw`para (?:o treino|o treinamento|a adaptação),? (?:\p{L}+ ){0,3}?(?:usamos|utilizamos|foram (?:usad|utilizad)[oa]s)`,
    String.raw`(?:adapted|fine${H}tuned|customi[sz]ed|speciali[sz]ed|tuned) (?:the |our |this |its )?(?:[\p{L}-]+ )?(?:model|system|assistant) (?:\p{L}+ ){0,2}?(?:using|with|on)`,
    // To train or develop the model, data was used: the infinitive of purpose, or the model's
    // development ("Para entrenar ese modelo usamos …", "Für die Entwicklung des Modells wurden …
    // verwendet", "To build the model we used …").
    String.raw`to (?:train|build|develop|fine${H}tune) (?:the|this|our|that) (?:[\p{L}-]+ )?(?:model|system|algorithm),? (?:\p{L}+ ){0,2}?(?:used|use|drew on)|(?:for|in) (?:the )?development of (?:the|this|our) (?:[\p{L}-]+ )?model,? (?:\p{L}+ ){0,3}?(?:used|drew on)`,
    String.raw`(?:für die|bei der|zur) entwicklung (?:des|unseres) (?:\p{L}+ )?(?:modells|systems|algorithmus) (?:[\p{L}\d.,–-]+ ){0,20}?(?:verwendet|genutzt|eingesetzt|herangezogen)|um (?:das|unser) (?:\p{L}+ )?(?:modell|system) zu trainieren,? (?:\p{L}+ ){0,3}?(?:verwendet|genutzt|nutzten|verwendeten)`,
    String.raw`pour (?:entraîner|développer|concevoir|affiner|ajuster) (?:le|ce|notre) (?:\p{L}+ )?(?:modèle|système|algorithme),? (?:\p{L}+ ){0,3}?(?:utilisé|utilisons|avons utilisé|a utilisé|ont été utilisé\p{L}*)`,
    String.raw`para (?:entrenar|desarrollar|ajustar) (?:el|ese|este|nuestro) (?:\p{L}+ )?(?:modelo|sistema|algoritmo),? (?:\p{L}+ ){0,2}?(?:usamos|utilizamos|empleamos|se (?:usaron|utilizaron|usó|utilizó))`,
    String.raw`per (?:addestrare|sviluppare|adattare) (?:il|questo|il nostro) (?:\p{L}+ )?(?:modello|sistema|algoritmo),? (?:\p{L}+ ){0,2}?(?:abbiamo (?:usato|utilizzato)|usiamo|utilizziamo|sono stat[ie] (?:usat|utilizzat)[ie])`,
    String.raw`om (?:het|dit|ons) (?:\p{L}+ )?(?:model|systeem|algoritme) te (?:trainen|ontwikkelen),? (?:\p{L}+ ){0,2}?(?:gebruikten|gebruiken|hebben (?:we|wij) (?:\p{L}+ ){0,3}?gebruikt)`,
    String.raw`para (?:treinar|desenvolver|afinar|ajustar) (?:o|este|esse|o nosso) (?:\p{L}+ )?(?:modelo|sistema|algoritmo),? (?:\p{L}+ ){0,2}?(?:usamos|usámos|utilizamos|utilizámos|foram (?:usad|utilizad)[oa]s)`,
  ],
});
/** Where the object of a TRAIN_PURPOSE cue starts: past the training noun and the verbs and pronouns after it. */
const TRAIN_PURPOSE_LEAD = /^(?:\S+ ){1,2}(?:entwicklung (?:des|unseres) (?:\S+ )?(?:modells|systems|algorithmus)|training|trainieren|anlernen|anpassung|feinabstimmung|nachtraining|fine.tuning|l['’]entraînement|l['’]apprentissage|l['’]adaptation|l['’]affinage|entrenamiento|adaptación|ajuste|l['’]addestramento|l['’]adattamento|trainen|aanpassing|treino|treinamento|adaptação),? (?:(?:haben|hatten|wurden|werden|wir|nous|avons|a|ont|été|hemos|se|abbiamo|sono|hebben|we|wij|zijn|foram|nós) )*/u;
/** The verb closing a TRAIN_PURPOSE cue whose object stands inside it. */
const TRAIN_PURPOSE_VERB = / \S+$/u;

/** The adaptation words of TRAIN_PURPOSE, which need a model named nearby. */
const ADAPTATION = /anpassung|feinabstimmung|adaptation|affinage|adaptación|ajuste|adattamento|aanpassing|adaptação/u;

/** The statement's section, its heading or the records under it ("Basismodell | Llama 3.1 8B"), names a model. */
function sectionNamesModel(d: Discourse, s: Sentence): boolean {
  const section = s.section;
  if (section === null) return false;
  if (section.heading !== null && findAll(MODEL_WORD, section.heading.text, section.heading.lower).length > 0) return true;
  return d.sections.some((x) => (x === section || x.parent === section) && [x.heading, ...x.sentences].some((y) => y !== null && findAll(MODEL_WORD, y.text, y.lower).length > 0));
}
const MODEL_WORD = lexeme({ lower: [String.raw`\p{L}*(?:model|modell|modèle|modelo|modello)\p{L}*`] });

/** Nouns naming training data. */
const TRAINING_NOUN = lexeme({
  lower: [
    String.raw`training${H}data(?:${H}?sets?)?|training (?:corpus|corpora|datasets?|sets?|material|examples)|data(?:set)? (?:provenance|lineage)|datasheets? for datasets|data(?:set)?${H}cards?`,
    String.raw`trainings${H}?daten\p{L}*|trainingsdatensatz\p{L}*|trainingskorpus`,
    String.raw`données d${A}(?:entraînement|apprentissage)|corpus d${A}(?:entraînement|apprentissage)|jeux? de données d${A}(?:entraînement|apprentissage)`,
    String.raw`datos de (?:entrenamiento|aprendizaje)|conjuntos? de (?:datos de )?entrenamiento`,
    String.raw`dati (?:di|per l${A}) (?:addestramento|allenamento)|set di addestramento`,
    String.raw`trainings?data|trainingsgegevens|trainingsset`,
    String.raw`dados de (?:treino|treinamento)|conjuntos? de (?:dados de )?(?:treino|treinamento)`,
  ],
});
/** A heading naming training: a training noun or verb ("Training and tuning", "Wissensbasis und Training", "Dati di addestramento"). */
const TRAINING_TOPIC = lexeme({
  lower: [
    String.raw`afinação|afinamento|affinage|fine${H}tuning|feinabstimmung|finetuning|ajuste fino|messa a punto|bijtraining|nachtraining|training|trainings?\p{L}*|trained|learned|learnt|learns?|trainier\p{L}*|gelernt|entraînement|entraîn\p{L}*|apprentissage|appris|entrenamiento|entren\p{L}*|aprendi\p{L}*|addestrament\p{L}*|addestr\p{L}*|getraind|treino|treinamento|trein\p{L}*`,
  ],
});
/**
 * What is trained in a machine-learning sense: a sentence saying a model, network or system was
 * trained on something is about the AI system even where it names no AI term ("The model was
 * trained on telematics driving-behaviour data", under a heading of its own).
 */
const TRAINED_THING = lexeme({
  lower: [
    String.raw`models?|modell\p{L}*|\p{L}+modell\p{L}*|modèles?|modelos?|modell[oi]|networks?|netz\p{L}*|réseaux?|redes?|ret[ei]|netwerk\p{L}*|algorithms?|algorithm(?:us|en)|algorithmes?|algoritm\p{L}*|classifiers?|klassifikator\p{L}*|classificateur\p{L}*|clasificador\p{L}*|classificator\p{L}*|classificador\p{L}*|chat${H}?bots?|assistant|assistent\p{L}*|asistente|assistente|emulators?|engine|motore|motor|moteur|system|systems|planner|tool|software|système|sistema|systeem|programs?|programmes?|programm|programa|programma|logiciel|outil|herramienta|strumento|ferramenta|werkzeug`,
  ],
});

/**
 * People who get trained: "our staff are trained on the latest safety rules" in a section about
 * the AI system is staff training, unless the sentence names what was trained ("our engineers
 * trained the model on …").
 */
const PEOPLE = lexeme({
  lower: [
    String.raw`you|staff|employees|agents|advis[eo]rs|team|teams|colleagues|operators|reviewers|moderators|nurses|doctors|clinicians|engineers|technicians|drivers|people|personnel|workers|trainees|graders|invigilators|handlers|users`,
    String.raw`mitarbeit\p{L}*|beschäftigte\p{L}*|personal|kolleg\p{L}*|fachkräfte|vous|employés|salariés|conseill\p{L}*|équipes?|personnel|empleados|asesores|agentes|equipos?|trabajadores|personale|dipendenti|operatori|addett\p{L}*|medewerkers|personeel|collega\p{L}*|funcionários|colaboradores|equipes?|equipas?|atendentes`,
  ],
});

/** Verbs that describe what a data set holds; their object is a category. */
const CONTAINS = lexeme({
  lower: [
    String.raw`includes?|included|including|consists? of|consisted of|comprises?|comprised|contains?|contained|(?:is|are|was|were) made up of|covers?|covered|spans?`,
    String.raw`umfass\p{L}*|besteh\p{L}* aus|bestand\p{L}* aus|enthält|enthalten|beinhalt\p{L}*|darunter`,
    String.raw`comprenn\p{L}*|comprend|compos\p{L}* (?:de|des|du|d${A})|contien\p{L}*|incluent|inclut|dont`,
    String.raw`incluy\p{L}*|consta\p{L}* de|compren\p{L}*|entre ell[oa]s`,
    String.raw`includ\p{L}*|comprend\p{L}*|compost\p{L}* da|contengono|contiene|tra cui`,
    String.raw`bestaa?t uit|bestonden uit|omvat\p{L}*|bevat\p{L}*|waaronder`,
    String.raw`inclu\p{L}*|consist\p{L}* (?:em|de)|cont(?:ém|êm)|compost\p{L}* por|entre (?:eles|elas)`,
  ],
});
/** "Adapted with", only under a training heading ("Aanvullende training: het model is aangepast met …"). */
const ADAPT_FORWARD = lexeme({
  lower: [
    String.raw`(?:calibrated|calibrée?s?|calibrad[oa]s?|calibrat[oaie]|kalibriert|gekalibreerd|afinad[oa]s?|afinou|adapted|adjusted|customi[sz]ed|specialised|specialized|angepasst|adapté\p{L}*|ajusté\p{L}*|adaptad[oa]s?|ajustad[oa]s?|(?:se )?(?:ajust|adapt|afin)(?:ó|aron)|adattat[oaie]|personalizzat[oaie]|mess[oaie] a punto|messi a punto|aangepast|verfijnd|afgestemd|(?:se )?(?:ajust|adapt)(?:ou|aram)|(?:ajust|adapt|afin)(?:amos|ámos)) ${AGENT}(?:\p{L}+ ){0,3}?(?:with|on|using|from|mit|auf|anhand|avec|sur|à partir d(?:e|es|u|${A})|con|en|a partir de|su|sulla base d(?:i|ei|ella)|met|op|com|em)`,
  ],
});

/** Verb-final adaptation participles (German, Dutch): "… mit 3.000 Gesprächen angepasst", "… met 4.000 teksten verfijnd". */
const ADAPT_FINAL = lexeme({ lower: [String.raw`angepasst|abgestimmt|feinabgestimmt|verfeinert|nachjustiert|aangepast|verfijnd|bijgesteld|afgestemd`] });
/** A sentence opening on the model as an object pronoun, fine-tuned: "Lo hemos ajustado con …", "L'abbiamo adattato con …". */
const PRONOUN_OBJECT = /^(?:lo|la|l['’]) ?(?:hemos|han|ha|abbiamo|hanno|avons|ont)\s/iu;

/**
 * Where data came from. Bounded: a provenance participle or verb with its preposition, a
 * licence or data-sharing agreement, an archive or register, the site's own collection, named
 * public corpora. Adjectives alone ("licensed data", "publicly available text") say what status
 * the data has, not where it came from; so does annotation ("each labelled by a dentist"): it says
 * who labelled the data, not where the data came from.
 */
/** Departments, channels and archives an organisation's own data comes from. */
const OWN_PLACE = String.raw`(?:services?|servicio|servizio|serviço|dienst|departments?|départements?|departamentos?|dipartiment[oi]|afdeling\p{L}*|archiv\p{L}*|arquivos?|archivos?|bases? de (?:données|datos|dados)|banca dati|registr\p{L}*|centr[eo]s?|cent(?:er|re)s?|help ?desk|apoio|atención|assistenza|klantenservice|balcão|sportell[oi]|portal\p{L}*|platforms?|plateformes?|plataformas?|piattaform[ae]|sites?|sitio|sito|website|apps?|applications?|aplicación|aplicação|applicazione|agências|agences|agencias|agenzie|filiales?|filiali|filialen|branches|sucursales|lojas?|stores?|shops?|magasins?|boutiques?|tiendas?|negozi|negozio|winkels?|clínicas|cliniques|cliniche|klinieken|hospitais|hôpitaux|hospitales|ospedali|ziekenhuizen|farmácias|pharmacies|farmacias|farmacie|apotheken)(?![\p{L}])`;

const SOURCE = lexeme({
  lower: [
    // The organisation's own department or records, in every language: "from our help desk", "de
    // notre service client", "de nuestro servicio de atención", "del nostro servizio clienti",
    // "van onze klantenservice", "do nosso apoio ao cliente".
    // A bare "of" ("de", "del", "do", "van") makes a source only before a department, channel or
    // archive: "les fiches de poste de nos entrepôts" say whose, not where from.
    String.raw`from our [\p{L}-]{3,}|(?:issues? de|à partir de|provenant de) (?:notre|nos) [\p{L}-]{3,}|(?:desde|procedentes? de) nuestr[oa]s? [\p{L}-]{3,}|(?:dal|dalla|dai|dalle|dagli) nostr[oaie] [\p{L}-]{3,}|uit (?:onze|ons) [\p{L}-]{3,}|(?:de|du|des|del|de la|della|dei|delle|degli|van|do|da|dos|das) (?:notre|nos|nuestr[oa]s?|nostr[oaie]|onze|ons|noss[oa]s?) (?:[\p{L}-]+ )?${OWN_PLACE}`,
    // English
    String.raw`(?:sourced|obtained|collected|gathered|licen[sc]ed|acquired|purchased|bought|compiled|downloaded|extracted|donated|contributed|submitted|provided|supplied|shared|taken|drawn|derived|crawled|scraped|received|recorded|captured|written|uploaded|digiti[sz]ed|released|made available|handed over|lent) (?:\p{L}+ ){0,3}?(?:from|by|through|via|on|at|during|under|across)`,
    String.raw`(?:collected|gathered|recorded|captured|photographed|filmed|scanned) (?:\p{L}+ ){0,1}?in|(?:comes?|came|coming|originates?|originated|originating|stems?|stemmed) (?:\p{L}+ ){0,2}?from|(?:from|of|by|in|on) (?:\p{L}+ ){0,2}?(?:our|its|their) own|(?:we|ourselves) (?:\p{L}+ ){0,1}?(?:generated|created|collected|recorded|wrote|gathered|compiled)|in${H}house`,
    String.raw`under (?:an? |the )?(?:\p{L}+ ){0,2}?(?:licen[cs]es?|agreements?|contracts?)|data${H}sharing (?:agreements?|arrangements?)|(?:licensing|content|data) (?:agreements?|partnerships?|deals?) with|public${H}domain|open (?:licen[cs]e|data)`,
    String.raw`(?:public|open|national|published|government) (?:\p{L}+ ){0,2}?(?:archives?|registers?|registry|repositor(?:y|ies)|datasets?|databases?)`,
    String.raw`common crawl|project gutenberg|wikipedia|imagenet|laion${H}\d*\p{L}*|the pile|github|stack overflow|arxiv|pubmed|open banking|copernicus|companies house`,
    // German
    // (Not the software's own origin: "Die Software selbst stammt von der Grazer Firma …".)
    String.raw`(?<!(?:software|system|programm|modell|anwendung|lösung|tool|werkzeug)(?: \p{L}+)? )(?:stamm|komm)(?:en|t|te|ten) (?:\p{L}+ ){0,3}?(?:aus|von)|(?:bereitgestellt|zur verfügung gestellt|geliefert|gespendet|gesammelt|erhoben|lizenziert|erworben|bezogen|übernommen|aufgezeichnet|geteilt|eingereicht|überlassen)|aus (?:\p{L}+ ){0,2}?(?:eigenen?|unsere[mnr]?)|unter (?:einer )?lizenz|öffentlich\p{L}* (?:\p{L}+ ){0,1}?(?:archiv|register|datensatz|datensätze\p{L}*|datenbank)\p{L}*|(?:archiv|register)\p{L}* (?:des|der) \p{L}+|datenspende\p{L}*|kooperation\p{L}*`,
    // French
    String.raw`(?:issu|provenant|fourni|collecté|recueilli|obtenu|acquis|extrait|récupéré|cédé|donné|partagé|mis à disposition|mise à disposition|mises à disposition|licencié|rédigé|constitué|enregistré)(?:e|s|es)? (?:\p{L}+ ){0,2}?(?:par|de|des|du|d${A}|auprès|à partir|dans|lors|sur|sous|chez)|provien(?:nent|t) d|sous licence|domaine public|(?:de|à partir de|dans) (?:\p{L}+ ){0,2}?(?:nos|notre) propres?|entrepôts? de données|(?:archives?|registres?|bases? de données) (?:\p{L}+ ){0,2}?(?:publi|national)\p{L}*`,
    // Spanish
    String.raw`(?:cedid|facilitad|proporcionad|suministrad|obtenid|recopilad|recogid|adquirid|extraíd|donad|aportad|compartid|registrad|licenciad|recolectad|capturad)[oa]s? (?:\p{L}+ ){0,3}?(?:por|de|del|en|a partir|durante|bajo|mediante|desde)|procedentes? de|provien(?:e|en) de|bajo licencia|dominio público|(?:de|en) (?:\p{L}+ ){0,2}?nuestr[oa]s? propi[oa]s?|(?:de|del|en) (?:la |los |las |el )?propi[oa]s? [\p{L}-]{3,}|(?:archivos?|registros?|bases? de datos) (?:\p{L}+ ){0,2}?públic\p{L}*`,
    // Italian
    String.raw`(?:provenient|fornit|raccolt|ottenut|acquisit|estratt|donat|condivis|concess|cedut|registrat|licenziat|messi a disposizione|messe a disposizione|mess[oa] a disposizione)\p{L}{0,2} (?:\p{L}+ ){0,3}?(?:da|dal|dalla|dall${A}|dai|dagli|dalle|durante|in|nel|nella|nelle|nei|presso|su|sotto|tramite)|provenient[ie] d|proven(?:gono|ga|gano) (?:\p{L}+ ){0,2}?(?:da|dal|dalla|dall${A}|dai|dagli|dalle)|proviene (?:\p{L}+ ){0,2}?(?:da|dal|dalla|dall${A}|dai|dagli|dalle)|in licenza|pubblico dominio|archivi[o]? pubblic[oi]|banche dati|(?:dai|dalle|nei|nelle) (?:\p{L}+ ){0,1}?(?:nostri|nostre|propri|proprie) \p{L}+|(?:dei|delle) (?:\p{L}+ ){0,1}?(?:nostri|nostre|propri|proprie) ${OWN_PLACE}`,
    // Dutch
    String.raw`(?:kom(?:en|t)|kwamen|afkomstig) (?:\p{L}+ ){0,3}?(?:uit|van)|beschikbaar gesteld|ter beschikking gesteld|aangeleverd|verzameld|verstrekt|gedeeld|gedoneerd|gelicentieerd|verkregen|ingekocht|overgenomen|(?:uit|van) (?:\p{L}+ ){0,2}?eigen|onder licentie|publiek domein|openbare (?:\p{L}+ ){0,1}?(?:archieven|archief|registers?|databank|dataset)`,
    // Portuguese
    String.raw`(?:disponibilizad|licenciad|obtid|recolhid|coletad|cedid|fornecid|doad|compartilhad|partilhad|registrad|adquirid|extraíd|recolhid)[oa]s? (?:\p{L}+ ){0,3}?(?:pel[oa]s?|por|de|do|da|dos|das|junto|em|no|na|nos|nas|durante|sob|a partir)|provenientes? de|prov(?:ê|é|êm|eem|inham|inha) d(?:e|o|a|os|as)|vind[oa]s? (?:\p{L}+ ){0,2}?d(?:e|o|a|os|as)|sob licença|domínio público|(?:de|do|da|dos|das|em) (?:\p{L}+ ){0,2}?própri[oa]s?|(?:do|da|dos|das) (?:noss[oa]s?) própri[oa]s?`,
    // Issue 21: the same family in every language, for records read, received, processed, written
    // or published by someone ("applications submitted through", "donated, with consent, by",
    // "reçues par le Groupe", "tramitados por", "ricevute sul nostro portale", "binnenkwamen via",
    // "enviados ao TalentoJá"), and partner organisations as the origin.
    String.raw`(?:published|posted|sent|issued|processed|handled|received|written|donated|submitted|provided|shared|contributed),? (?:[\p{L}]+,? ){0,3}?(?:by|through|via|to|on|at|from)`,
    String.raw`(?:eingegangen|übermittelt|veröffentlicht|verfasst|eingesandt|hochgeladen)|(?:von|über|bei|aus) (?:\p{L}+ ){0,4}?(?:erhalten|geschrieben|erstellt|gesammelt) (?:haben|hat|wurden|worden)`,
    String.raw`(?:reçu|transmis|publié|envoyé|traité|déposé|soumis|rédigé|écrit)(?:e|s|es)? (?:\p{L}+ ){0,2}?(?:par|via|sur|à|auprès|de|du|des)`,
    // Written by someone, not "written descriptions of incidents" ("descrições escritas de ocorrências").
    String.raw`(?:tramitad|gestionad|recibid|enviad|publicad|concedid|emitid|presentad|comunicad)[oa]s? (?:\p{L}+ ){0,3}?(?:por|en|a|al|de|del|desde|mediante|a través)|(?:escrit|redactad)[oa]s? (?:\p{L}+ ){0,3}?(?:por|en)|que comparten`,
    String.raw`(?:ricevut|inviat|pubblicat|comunicat|tratt|gestit|elaborat|scritt|redatt|presentat)[oaie] (?:\p{L}+ ){0,3}?(?:da|dal|dalla|dall${A}|dai|dalle|dagli|su|sul|sulla|sui|nel|nella|tramite|attraverso|a|al|alla)`,
    String.raw`(?:binnengekomen|binnenkwamen|binnenkomen|ingestuurd|ingezonden|ontvangen|gepubliceerd|geplaatst|geschreven|vastgelegd|verwerkt|opgesteld)`,
    String.raw`(?:enviad|recebid|publicad|submetid|tramitad|processad|comunicad)[oa]s? (?:\p{L}+ ){0,3}?(?:ao|à|aos|às|a|no|na|nos|nas|em|pel[oa]s?|por|de|do|da|através)|(?:escrit|redigid)[oa]s? (?:\p{L}+ ){0,3}?(?:pel[oa]s?|por|n[oa]s?|em)`,
    // (Not who built the model: "developed by our partner Ferrous Labs".)
    String.raw`(?<!(?:developed|built|made|created|designed|maintained|entwickelt|développée?s?|conçue?s?|desarrollad[oa]s?|sviluppat[oa]|ontwikkeld|gebouwd|desenvolvid[oa]s?) )(?:of|from|by|von|vom|der|de|des|du|da|di|dei|delle|degli|van|do|dos|das) (?:(?:our|unser\p{L}*|nos|notre|nuestr[oa]s?|nostr[oi]|onze|noss[oa]s?) )?(?:\d[\d.,]* )?(?:\p{L}+ )?(?:partner\p{L}*|partenaires?|parceir[oa]s?|socios?|soci)(?![\p{L}])`,
    // Issue 21, held-out half: the organisation's own past cases as the data, named by who did
    // them ("the outcomes of 14,200 checks carried out by regional inspectors", "svolti dai
    // tecnici regionali", "die inspecteurs van de provincie … uitvoerden", "die unsere
    // Auszubildenden eigens dafür geschrieben haben", "aus dem Lernwerk-Aufgabenpool", "die
    // Artikel dieser Hilfeseiten"). Evaluation and review verbs are left out: "evaluated by an
    // external lab" after a training statement says who tested the model, not where data came from.
    String.raw`(?:carried out|conducted|performed|handled|completed|inspected|marked|graded) (?:\p{L}+ ){0,3}?by`,
    String.raw`(?:durchgeführt|bearbeitet|korrigiert)\p{L}* (?:\p{L}+ ){0,3}?(?:von|durch)|(?:von|durch) (?:\p{L}+ ){0,4}?(?:durchgeführt|bearbeitet|korrigiert|geschrieben|erstellt|eingeordnet|verfasst)|(?:die|der|das|welche) (?:\p{L}+ ){0,6}?(?:geschrieben|erstellt|gesammelt|erzielt|eingereicht|eingeordnet|durchgeführt|verfasst) (?:haben|hat|hatten|hatte|wurden|wurde|worden)|(?:dieser|unserer) (?:hilfeseiten|website|webseite|plattform|app)|aus (?:dem|der|den|unserem|unserer) (?:[\p{L}-]+)?(?:pool|bestand|archiv|datenbank|katalog|fundus)(?![\p{L}])`,
    String.raw`(?:réalisé|effectué|mené|conduit|traité|instruit|corrigé)(?:e|s|es)? (?:\p{L}+ ){0,2}?(?:par|au sein|dans)`,
    String.raw`(?:realizad|efectuad|llevad|resuelt|corregid)[oa]s? (?:\p{L}+ ){0,3}?(?:por|en)`,
    String.raw`(?:effettuat|svolt|condott|eseguit|corrett)[oaie] (?:\p{L}+ ){0,3}?(?:da|dal|dalla|dall${A}|dai|dalle|dagli|nel|nella|presso)`,
    String.raw`uitgevoerd (?:door|bij)|(?:die|dat) (?:[\p{L}\p{N}-]+ ){0,10}?(?:uitvoerde|uitvoerden|afhandelde|afhandelden|controleerde|controleerden|schreef|schreven|verzamelde|verzamelden|registreerde|registreerden)(?![\p{L}])`,
    String.raw`(?:realizad|efetuad|efectuad|conduzid|corrigid)[oa]s? (?:\p{L}+ ){0,3}?(?:pel[oa]s?|por|em|no|na)`,
    // A counted set of institutions the data came from: "de 14 hospitais", "von 18 Marken", "de nos 31 agences", "van 9 locaties", "from 12 partner schools".
    String.raw`(?:from|von|aus|de|des|du|da|do|dos|das|di|dei|delle|degli|van|uit) (?:(?:nos|nossos|nossas|nuestr[oa]s|nostri|nostre|unseren|onze|our|their|ihren|leurs) )?\d[\d.,]* (?:\p{L}+ )?(?:hospitals?|clinics?|schools?|universities|banks?|insurers?|brands?|courts?|municipalities|councils?|libraries|publishers?|agencies|branches|stores?|shops?|sites?|locations?|companies|employers|krankenhäusern|kliniken|schulen|hochschulen|banken|versicherern|marken|gerichten|kommunen|gemeinden|bibliotheken|verlagen|filialen|standorten|unternehmen|hôpitaux|cliniques|écoles|lycées|universités|banques|assureurs|marques|tribunaux|communes|bibliothèques|éditeurs|agences|magasins|entreprises|hospitales|clínicas|escuelas|colegios|universidades|bancos|aseguradoras|marcas|tribunales|ayuntamientos|bibliotecas|editoriales|oficinas|tiendas|empresas|ospedali|cliniche|scuole|università|banche|assicurazioni|marchi|tribunali|comuni|biblioteche|editori|agenzie|filiali|negozi|aziende|ziekenhuizen|klinieken|scholen|universiteiten|verzekeraars|merken|rechtbanken|gemeenten|bibliotheken|uitgevers|vestigingen|winkels|locaties|bedrijven|hospitais|escolas|seguradoras|tribunais|municípios|editoras|agências|lojas)(?![\p{L}])`,
  ],
});

/**
 * Provenance adjectives: the data's origin stated as its status ("publicly available text",
 * "licensed data", "synthetic conversations", "données publiques"). A source, but it does not
 * end a category the way "obtained from" does: "publicly available text" is text from public
 * sources.
 */
const SOURCE_ADJECTIVE = lexeme({
  lower: [
    String.raw`(?:publicly|openly|freely) (?:available|accessible)|public${H}domain|(?:openly |permissively )?licen[sc]ed|open${H}(?:source|licen[sc]ed)|(?:user|customer|crowd|volunteer)${H}(?:submitted|generated|contributed|provided|sourced)|synthetic(?:ally generated)?|third${H}party|proprietary`,
    String.raw`öffentlich (?:verfügbar|zugänglich)\p{L}*|lizenziert\p{L}*|synthetisch\p{L}*|gemeinfrei\p{L}*|(?:nutzer|kunden)generiert\p{L}*`,
    String.raw`publi(?:c|que)s|publiquement (?:disponibles?|accessibles?)|accessibles? au public|sous licence|synthétiques?|libres? de droits`,
    String.raw`públic[oa]s|disponibles públicamente|con licencia|sintétic[oa]s`,
    String.raw`pubblic[ie]|pubblicamente disponibili|con licenza|sintetic[ie]`,
    String.raw`openbare|openbaar beschikbare|gelicentieerde|synthetische`,
    String.raw`publicamente disponíveis|licenciad[oa]s|sintétic[oa]s`,
  ],
});

/**
 * Words that say nothing about the kind of content: determiners, prepositions, quantities,
 * generic data nouns and provenance or time adjectives. What is left of a training object is
 * its category ("2.1 million images of paper receipts" → images, paper, receipts).
 */
const NOT_A_CATEGORY = new Set(
  [
    // English
    'the a an and or of on with from in at to for by its their our your his her this that these those it they them we us some any all each every both other others further additional also following',
    'folgende folgenden folgender suivantes suivants siguientes seguenti volgende seguintes wir nous nosotros noi wij nós',
    'about around roughly approximately approx some several many more than over under nearly almost up to least most few dozens tens hundreds thousands millions billions hundred thousand million billion trillion k m bn',
    'training trainingsdaten trainingsdatensatz trainingsgegevens trainingsdata entraînement apprentissage entrenamiento aprendizaje addestramento treinamento treino',
    'data dataset datasets database databases corpus corpora information info content contents material materials examples example samples sample records record items item sets set collection collections sources source inputs input',
    'historical historic past previous prior earlier recent latest new licensed licenced public publicly available openly freely accessible open proprietary own internal external third party third-party partner partners anonymised anonymized de-identified deidentified pseudonymised pseudonymized synthetic real world real-world existing collected curated selected various diverse different high-quality quality raw large small huge vast broad wide range variety mix mixture selection type types kind kinds category categories exclusively mainly mostly primarily only solely largely scratch',
    'publique publiques públicos públicas público pública pubblici pubbliche pubblico openbare openbaar publicamente públicamente pubblicamente publiquement licence license licencia licenza licença licentie lizenz sous bajo sotto sob onder synthétique synthétiques sintéticos sintéticas sintetici sintetiche synthetische synthetisch synthetischen verfügbare verfügbaren zugängliche zugänglichen disponibles disponible disponibili disponíveis beschikbare accessibles gelicentieerde licenciados licenciadas lizenzierten gemeinfreie',
    'is are was were been be being has have had which who whose whom where when while what',
    // Relative pronouns: "dados que provêm de …" names no kind of content.
    'que qui dont lesquels lesquelles cuyo cuyos cui che welche welcher welches waarvan welke',
    // German
    'der die das den dem des ein eine einen einem einer eines und oder mit von aus auf anhand bei über unter rund etwa ca zirka mehr als mehrere mehreren zusätzlich tausend tausende tausenden millionen million milliarden hunderttausende hunderttausenden daten datensätze datensätzen datensatz informationen material materialien inhalte inhalten beispiele historischen historische historischer früheren frühere eigenen eigene eigener öffentlich öffentlichen öffentliche lizenzierten lizenzierte anonymisierten anonymisierte pseudonymisierten pseudonymisierte synthetischen synthetische unsere unseren unserem unserer sowie zugehörigen zugehörige jeweiligen wurde wurden worden ist sind hat haben',
    // French
    'le la les l un une des du de d et ou sur avec à partir environ plus près millions million milliers milliards centaines données donnée informations contenus contenu exemples matériel matériaux historiques historique publiques publics propres nos notre leurs anonymisées anonymisés anonymisée anonymisé pseudonymisées synthétiques correspondantes correspondants associés associées a été ont été',
    // Spanish
    'el la los las un una unos unas del de y o con en sobre a partir más alrededor cerca millones millón miles datos dato información contenidos ejemplos material materiales históricos históricas histórico histórica propios propias nuestros nuestras nuestro públicos públicas anonimizados anonimizadas anonimizada anonimizado sintéticos sintéticas se ha han fue fueron',
    // Italian
    'il lo la i gli le un una uno dei delle degli di del della dello e o con su sui sulle da circa oltre più milioni migliaia dati informazioni contenuti esempi materiale materiali storici storiche storico storica propri proprie nostri nostre pubblici pubbliche anonimizzati anonimizzate anonimizzata anonimizzato anonime anonimi sintetici è stato stata stati state',
    // Dutch
    'de het een en of met op van uit ruim circa ongeveer meer dan miljoen miljoenen duizenden duizend gegevens data voorbeelden materiaal materialen inhoud kregen kreeg gekregen ontvingen ontving ontvangen eerdere historische eigen onze openbare geanonimiseerde synthetische is zijn werd werden',
    // Portuguese
    'o a os as um uma uns umas do da dos das de e ou com em sobre cerca mais milhões milhares dados informações conteúdos exemplos material materiais históricos histórico próprio própria próprios nosso nossa nossos nossas públicos anonimizados anonimizadas anonimizada anonimizado sintéticos foi foram',
  ]
    .join(' ')
    .split(' '),
);

/** Quantities without a figure ("large amounts of"), and text in general: with nothing else, no kind of content. */
const VAGUE_QUANTITY = new Set('amounts amount quantities quantity lots volumes mengen menge quantités quantité cantidades cantidad quantità hoeveelheden hoeveelheid quantidades quantidade'.split(' '));
const VAGUE_TEXT = new Set('text texts großen große texte textes texte grandes textos texto grandi testo testi grote tekst teksten'.split(' '));

/**
 * Where a training object turns to where it came from: "from", or a provenance participle
 * ("a dataset provided to the council by …", "dati ottenuti dall'Università …").
 */
const OBJECT_ORIGIN = /(?:^|\s)(?:from|aus|uit|(?:sourced|obtained|collected|gathered|licen[sc]ed|acquired|purchased|provided|supplied|donated|contributed|shared|drawn|derived|received|made available|bereitgestellt|geliefert|erhoben|gesammelt|fourni\p{L}*|collecté\p{L}*|obtenu\p{L}*|issu\p{L}*|proporcionad\p{L}*|facilitad\p{L}*|obtenid\p{L}*|cedid\p{L}*|ottenut\p{L}*|fornit\p{L}*|raccolt\p{L}*|forneci\p{L}*|obtid\p{L}*|cedid\p{L}*|aangeleverd|verkregen|verzameld))\s/u;

/** A conjunction, question word or cross-reference where an object should start: "what it was trained on and what you can do", "Trained on: see the model card". */
const NOT_AN_OBJECT = /^(?:and|or|but|what|which|how|why|und|oder|aber|sowie|et|ou|mais|y|pero|ma|maar|mas|porém|see|siehe|voir|véase|ver|vedi|zie|veja|consulte)$/u;

/** Where an object ends: a clause break, or a relative or purpose clause. */
const OBJECT_END = /,(?!\d)|[;:()–—]|\s(?:which|that|so that|to make|in order|because|damit|um|sodass|weil|afin|pour que|parce|para que|porque|perché|affinché|zodat|omdat|para)\s/u;
/** Longest object examined, in characters. */
const OBJECT_MAX = 200;
/** Sentences after a training statement that may still describe its data. */
const CONTEXT_AFTER = 3;
/** Characters before a verb-final training verb searched for its preposition. */
const FINAL_REACH = 200;

// ---------------------------------------------------------------------------------------------
// Analysis

/** A training statement and what its context says. */
export interface TrainingStatement {
  sentence: Sentence;
  /** The cue that decided (verb and preposition, or the training noun). */
  hit: Hit;
  /** The first category and source in the statement's context. */
  category: Hit | undefined;
  source: Hit | undefined;
}

export interface TrainingData {
  /** Training statements and training-headed sections, in reading order. */
  statements: readonly TrainingStatement[];
  /** The first context with both a category and a source. */
  both: TrainingStatement | undefined;
  /** A visible link naming training data. */
  link: Target | undefined;
}

const analyses = new WeakMap<Discourse, TrainingData>();

/**
 * The page's training-data statements, memoised per discourse (both training controls read
 * them): none on a page without an AI system of its own (`ownSystemOf`).
 */
export function trainingDataOf(d: Discourse): TrainingData {
  return ownSystemOf(d) === undefined ? NONE : statementsOf(d);
}

/** The statements whatever the gate says, memoised: the gate itself reads them (`modelTrainingStatement`). */
function statementsOf(d: Discourse): TrainingData {
  let found = analyses.get(d);
  if (found === undefined) {
    found = analyse(d);
    analyses.set(d, found);
  }
  return found;
}

/**
 * For the page-level gate (own-system.ts): a training statement about a model, with something
 * concrete about its data ("Das Modell wurde mit 85.000 Bewerbungen trainiert"): only machine
 * learning is trained on data. Not in a sentence or section that reports another party's words.
 */
export function modelTrainingStatement(d: Discourse): Hit | undefined {
  const found = statementsOf(d).statements.find(
    (s) => (s.category !== undefined || s.source !== undefined) && namesTrainedThing(s.sentence) && !isReported(d, s.sentence) && s.hit.start >= s.sentence.start,
  );
  return found?.hit;
}

const NONE: TrainingData = { statements: [], both: undefined, link: undefined };

function analyse(d: Discourse): TrainingData {
  const link = d.corpus.targets.find((t) => t.source === 'link' && (TRAINING_HREF.test(t.lower) || findAll(TRAINING_NOUN, t.text, t.text.toLowerCase()).length > 0));
  // Most pages say nothing of training: one look at the page-wide cue hits settles it.
  if (!d.sentences.some((s) => hitsIn(s, TRAIN_VERB_ONLY).length > 0 || hitsIn(s, TRAINING_TOPIC).length > 0 || hitsIn(s, TRAINING_NOUN).length > 0 || hitsIn(s, TRAIN_PURPOSE).length > 0 || hitsIn(s, ADAPT_FORWARD).length > 0 || hitsIn(s, ADAPT_FINAL).length > 0 || hitsIn(s, MADE_FROM).length > 0 || MAKING.test(s.lower))) return { ...NONE, link };
  const finalVerb = FINAL_VERB_LANGS.test(d.corpus.page.lang?.toLowerCase() ?? '') || d.corpus.page.lang === null;
  const statements: TrainingStatement[] = [];

  for (const section of d.sections) {
    const sentences = section.sentences;
    const heading = section.heading;
    // "Training data" as a heading is machine learning's own term: on a page that discloses an AI
    // system it heads that system's data even where it names no AI ("Training data: MedLex 2.4 was
    // fine-tuned on …"). "Training" alone may be staff training, so it needs an AI heading.
    const dataHeading = heading !== null && hitsIn(heading, TRAINING_NOUN).some((hit) => !isNegated(d, heading, hit.start, hit.end));
    // A heading asking what the model or system was trained on ("Su quali dati è stato addestrato
    // il sistema", "Waarop is het systeem getraind?") heads its training data too, unless it is
    // about people being trained.
    // So does a training heading that names nothing but the data ("¿Con qué información se
    // entrenó?", "Con qué datos aprendió"): on a page with an AI system of its own (the only pages
    // read here), its subject is that system.
    const dataQuestion = heading !== null && DATA_WORD.test(heading.lower);
    const trainingSection =
      heading !== null &&
      (dataHeading ||
        ((isAiSentence(d, heading) || namesTrainedThing(heading) || dataQuestion) && findAll(PEOPLE, heading.text, heading.lower).length === 0 && isTrainingHeading(d, heading)));
    for (let i = 0; i < sentences.length; i++) {
      const s = sentences[i]!;
      // "Training data" / "Dados de treinamento" in the sentence itself is machine learning's own term too.
      // Under a training heading that names the system or asks about its data, every sentence is about that system ("We trained it on …").
      // A calibration on data ("La pondération de ces règles a été calibrée à partir de données …")
      // is the fitting of a model, whatever the sentence names.
      const ai = isAiSentence(d, s) || trainingSection || hitsIn(s, TRAINING_NOUN).length > 0 || CALIBRATED.test(s.lower);
      if (!ai && !namesTrainedThing(s) && !(opensOnPronoun(s) && antecedentIsSystem(d, section, i)) && !trainedOnThousands(s)) continue;
      // The model named in the sentence before: "O modelo de base é fornecido pela Lumen Labs. Depois, foi afinado pela nossa equipa com:".
      const cue = statementIn(d, s, finalVerb, trainingSection && ai, i > 0 && namesTrainedThing(sentences[i - 1]!));
      if (cue === undefined && !trainingSection) continue;
      // The context: the whole section under a training heading, else the statement and the
      // sentences after it.
      // A statement ending on a colon introduces a list ("We trained the model on:", "Il a été
      // entraîné sur :"): its items are its object, however many there are.
      const items = cue !== undefined && s.text.trimEnd().endsWith(':') ? listAfter(d, sentences, i) : 0;
      if (cue?.listNeedsFigure === true && !sentences.slice(i + 1, i + 1 + items).some((item) => /\d/u.test(item.text))) continue;
      const context = trainingSection ? sentences.slice(i) : sentences.slice(i, i + 1 + Math.max(CONTEXT_AFTER, items));
      const statement: TrainingStatement = { sentence: s, hit: cue?.hit ?? { start: heading!.start, end: heading!.end }, category: cue?.category, source: undefined };
      for (const [k, c] of context.entries()) {
        if (k > 0 || cue?.category === undefined) statement.category ??= categoryIn(d, c, finalVerb, trainingSection, k > 0 && k <= items);
        // In the statement, its object starts after the cue; an item of its list is all object.
        const item = k > 0 && (k <= items || (trainingSection && ITEM_ELEMENTS.has(d.corpus.page.textBlocks[c.blockIndex]?.element?.name ?? '')));
        statement.source ??= sourceIn(d, c, k === 0 && cue !== undefined ? cue.hit.end : item ? c.start : undefined);
        if (statement.category !== undefined && statement.source !== undefined) break;
      }
      if (cue !== undefined || statement.category !== undefined || statement.source !== undefined) statements.push(statement);
      if (trainingSection) break;
    }
  }
  return { statements, both: statements.find((s) => s.category !== undefined && s.source !== undefined), link };
}

/** Items of a list read as one record: at most this many. */
const LIST_MAX_ITEMS = 20;
const ITEM_ELEMENTS = new Set(['li', 'dd', 'td']);

/** How many sentences after `sentences[i]` are items of the list it introduces (list items, definitions or cells, in a row). */
function listAfter(d: Discourse, sentences: readonly Sentence[], i: number): number {
  let n = 0;
  for (let k = i + 1; k < sentences.length && n < LIST_MAX_ITEMS; k++, n++) {
    if (!ITEM_ELEMENTS.has(d.corpus.page.textBlocks[sentences[k]!.blockIndex]?.element?.name ?? '')) break;
  }
  return n;
}

/**
 * Trained on thousands of records: only machine learning is ("Scriba 2.4 is bijgetraind op 1,2
 * miljoen vacatureteksten"), whatever the sentence calls the system; people are trained for hours.
 */
function trainedOnThousands(s: Sentence): boolean {
  return hitsIn(s, TRAIN_FORWARD).some((hit) => THOUSANDS.test(s.lower.slice(hit.end - s.start, hit.end - s.start + 40)));
}
const THOUSANDS = /^ (?:\p{L}+ ){0,2}?(?:\d{1,3}(?:[.,'’ ]\d{3})+|\d{4,}(?<!(?:19|20)\d\d)|\d+(?:[.,]\d+)? (?:million\p{L}*|mio\.?|millions?|millones|millón|milioni|milione|miljoen|milhões|milhão|mil|billion\p{L}*|mrd\.?))(?![\d])/u;

function namesTrainedThing(s: Sentence): boolean {
  return findAll(TRAINED_THING, s.text, s.lower).length > 0;
}

/** A sentence whose subject refers back ("It was trained on …" after "The grasp-planning model, PickPilot Vision v4.1, …"), also after an inverted verb ("Trainiert wurde sie mit …"). */
const PRONOUN_OPENING = /^(?:(?:it|they|this|es|er|sie|il|elle|ils|elles|él|ella|esso|essa|hij|het|ze|ele|ela)\s|\p{L}+ (?:wurde|wurden|ist|hat|haben|werd|werden) (?:sie|es|er|hij|het|ze)\s)/iu;
function opensOnPronoun(s: Sentence): boolean {
  return PRONOUN_OPENING.test(s.text);
}

/**
 * What a sentence opening on a pronoun refers to is a model or an AI system: the sentence before
 * it names one; or, opening its section, the heading does, or the section just before it in
 * the same landmark names AI ("Comment fonctionne le correcteur ? … générés par une intelligence
 * artificielle." › "Sur quoi le correcteur s'appuie-t-il ? Il a été entraîné sur : …").
 */
function antecedentIsSystem(d: Discourse, section: Section, i: number): boolean {
  if (i > 0) return namesTrainedThing(section.sentences[i - 1]!);
  const heading = section.heading;
  if (heading !== null && (namesTrainedThing(heading) || mentionsAi(d, heading))) return true;
  const at = d.sections.indexOf(section);
  for (let k = at - 1; k >= 0 && k >= at - 3; k--) {
    const previous = d.sections[k]!;
    if (previous.landmark !== section.landmark) return false;
    if (previous.sentences.length > 0) return previous.sentences.some((x) => mentionsAi(d, x));
  }
  return false;
}

/** A data noun in a training heading ("Con qué datos aprendió", "¿Con qué información se entrenó?"). */
const DATA_WORD = /(?:^|[^\p{L}])(?:data|daten|données|datos|dati|gegevens|dados|information|informationen|información|informazioni|informatie|informações|material|materiale|materiaal|ejemplos|exemples|examples|beispiele|esempi|voorbeelden|exemplos)(?![\p{L}])/u;

function isTrainingHeading(d: Discourse, heading: Sentence): boolean {
  // "Learn more", "Mehr erfahren", "En savoir plus": a call to read on, not what the system learned from.
  if (LEARN_MORE.test(heading.lower.trim())) return false;
  if ([...hitsIn(heading, TRAINING_NOUN), ...hitsIn(heading, TRAINING_TOPIC)].some((hit) => !isNegated(d, heading, hit.start, hit.end))) return true;
  // What the system was built or adjusted with ("Op welke gegevens is het model gebouwd?", "Dados
  // usados no ajuste do modelo", "Avec quels textes Plume a-t-il été ajusté ?"); not the data it
  // uses ("Welche Daten nutzt das Modell?").
  return MAKING.test(heading.lower) && (DATA_WORD.test(heading.lower) || WITH_WHAT.test(heading.lower)) && (isAiSentence(d, heading) || namesTrainedThing(heading));
}
/** A question about what something was made with: "Avec quels …", "Mit welchen …", "Con qué …", "On what …". */
const WITH_WHAT = /(?:^|[^\p{L}])(?:with|on|from) (?:what|which)|(?:mit|auf|aus) welche[nmrs]?|(?:avec|sur|à partir de) (?:quels?|quelles?)|(?:con|sobre|a partir de) (?:qué|cuáles)|(?:con|su|da) (?:quali|quale|che)|(?:met|op|uit) welke|(?:com|em|a partir de) (?:que|quais)(?![\p{L}])/u;
/** Building or adjusting a model, as a participle or a noun. */
const MAKING =
  /(?:^|[^\p{L}])(?:built|developed|created|constructed|adjust(?:ed|ment)|adapt(?:ed|ation)|gebaut|aufgebaut|entwickelt|erstellt|angepasst|anpassung|entwicklung|construite?s?|développée?s?|conçue?s?|créée?s?|ajustée?s?|ajustement|adaptée?s?|adaptation|développement|construid[oa]s?|desarrollad[oa]s?|cread[oa]s?|ajustad[oa]s?|ajuste|adaptad[oa]s?|adaptación|desarrollo|costruit[oaie]|sviluppat[oaie]|creat[oaie]|adattat[oaie]|adattamento|sviluppo|gebouwd|opgebouwd|ontwikkeld|gemaakt|aangepast|aanpassing|ontwikkeling|construíd[oa]s?|desenvolvid[oa]s?|criad[oa]s?|adaptação|desenvolvimento)(?![\p{L}])/u;
const LEARN_MORE = /^(?:learn more|find out more|mehr erfahren|erfahren sie mehr|en savoir plus|pour en savoir plus|saber más|aprende más|más información|scopri di più|per saperne di più|meer weten|lees meer|meer leren|saiba mais|aprenda mais|saber mais)\b/u;

interface Cue {
  hit: Hit;
  category: Hit | undefined;
  /** Adjusting or "training" that introduces a list: only data if an item counts something (not "a formal tone; shorter answers"). */
  listNeedsFigure?: boolean;
}

/** The sentence's first affirmed training statement, with the category its object names. */
function statementIn(d: Discourse, s: Sentence, finalVerb: boolean, trainingSection: boolean, modelBefore = false): Cue | undefined {
  const people = findAll(PEOPLE, s.text, s.lower)[0];
  const trainsPeople = people !== undefined && findAll(TRAINED_THING, s.text, s.lower).length === 0;
  const affirmed = (hit: Hit) => !(trainsPeople && s.start + people.start < hit.start) && !isNegated(d, s, hit.start, hit.end);
  for (const hit of hitsIn(s, TRAIN_FORWARD)) {
    if (affirmed(hit)) return { hit, category: categoryAfter(s, hit.end) };
  }
  if (trainingSection) {
    for (const hit of hitsIn(s, ADAPT_FORWARD)) if (affirmed(hit)) return { hit, category: categoryAfter(s, hit.end) };
  } else if (namesTrainedThing(s) || PRONOUN_OBJECT.test(s.text) || modelBefore) {
    // Fine-tuning outside a training section ("Lo hemos ajustado con 5.000 conversaciones", "Ajustámos
    // o modelo com 3 000 horas de áudio"): "adapted with" may add features too, so the object must
    // be data with a figure, or a list.
    for (const hit of hitsIn(s, ADAPT_FORWARD)) {
      if (!affirmed(hit)) continue;
      const category = categoryAfter(s, hit.end);
      // "o modelo foi ajustado com:" then a list: the caller reads the items as the object.
      if (category !== undefined && /\d/u.test(s.text.slice(category.start - s.start, category.end - s.start))) return { hit, category };
      if (endsOnColon(s)) return { hit, category, listNeedsFigure: true };
    }
  }
  if (finalVerb) {
    // Verb-final fine-tuning naming the model: "Wir haben das Modell mit 3.000 Gesprächen angepasst".
    const adapt = namesTrainedThing(s) ? hitsIn(s, ADAPT_FINAL) : [];
    for (const verb of [...hitsIn(s, TRAIN_VERB_ONLY), ...adapt]) {
      const from = Math.max(s.start, verb.start - FINAL_REACH);
      const window = d.corpus.lower.slice(from, verb.start);
      const prep = findAll(FINAL_PREP, window, window)[0];
      if (prep === undefined) continue;
      const hit = { start: from + prep.start, end: verb.end };
      if (affirmed({ start: verb.start, end: verb.end }) && affirmed({ start: hit.start, end: from + prep.end })) {
        const category = categoryOf(s, from + prep.end, verb.start);
        if (adapt.includes(verb) && (category === undefined || !/\d/u.test(s.text.slice(category.start - s.start, category.end - s.start)))) continue;
        return { hit, category };
      }
    }
  }
  for (const hit of hitsIn(s, USED_TO_TRAIN)) {
    if (affirmed(hit)) return { hit, category: categoryOf(s, Math.max(s.start, hit.start - OBJECT_MAX), hit.start) };
  }
  for (const hit of hitsIn(s, TRAIN_PURPOSE)) {
    if (!affirmed(hit)) continue;
    // "Anpassung", "adaptation" alone may adjust anything (prices, tariffs): only where a model is named, in the sentence or its section.
    if (ADAPTATION.test(s.lower.slice(hit.start - s.start, hit.end - s.start)) && !namesTrainedThing(s) && !sectionNamesModel(d, s)) continue;
    // The object inside the clause ("Zum Training wurden 20.000 Briefe genutzt"), else after it ("adapted the base model using …").
    const text = s.lower.slice(hit.start - s.start, hit.end - s.start);
    const lead = TRAIN_PURPOSE_LEAD.exec(text);
    const verb = TRAIN_PURPOSE_VERB.exec(text);
    const inner = lead !== null && verb !== null && lead[0].length < verb.index ? categoryOf(s, hit.start + lead[0].length, hit.start + verb.index) : undefined;
    return { hit, category: inner ?? categoryAfter(s, hit.end) };
  }
  // The model made from records: "Il modello è stato sviluppato internamente a partire dallo storico
  // di circa 410.000 prestiti", "The model was built from 12 years of claims". Making is not
  // training, so the object must be counted records or a history.
  if (namesTrainedThing(s)) {
    for (const hit of hitsIn(s, MADE_FROM)) {
      if (!affirmed(hit) || !MODEL_BEFORE.test(s.lower.slice(0, hit.start - s.start))) continue;
      if (recordsOrHistory(s.lower.slice(hit.end - s.start, objectEnd(s, hit.end) - s.start))) return { hit, category: categoryAfter(s, hit.end) };
    }
  }
  // Training named in a sentence that introduces a list ("O ajuste fino do modelo e o treinamento do
  // classificador usaram as seguintes fontes:"): the items are its data.
  if (endsOnColon(s) && !trainsPeople) {
    for (const hit of hitsIn(s, TRAINING_TOPIC)) if (affirmed(hit) && !LEARN_MORE.test(s.lower.slice(hit.start - s.start))) return { hit, category: undefined, listNeedsFigure: true };
  }
  for (const hit of hitsIn(s, TRAINING_NOUN)) {
    if (!affirmed(hit)) continue;
    // A field "Training data: <what>" ("Dados de treinamento: imagens dos satélites …") names its content after the colon.
    const colon = /^\s*:\s*/u.test(s.text.slice(hit.end - s.start));
    return { hit, category: colon ? categoryAfter(s, hit.end) : undefined };
  }
  return undefined;
}

function endsOnColon(s: Sentence): boolean {
  return s.text.trimEnd().endsWith(':');
}

/**
 * A model made from data, in the seven languages: a making participle, its agent, then a
 * preposition of origin ("developed from", "sviluppato internamente a partire dallo",
 * "desenvolvido pela equipa de Risco da Caixa Serrana a partir do", "gebouwd op basis van").
 */
const MADE_FROM = lexeme({
  lower: [
    String.raw`(?:developed|built|created|constructed|derived|entwickelt|erstellt|aufgebaut|gebaut|abgeleitet|développée?s?|construite?s?|conçue?s?|créée?s?|desarrollad[oa]s?|construid[oa]s?|cread[oa]s?|sviluppat[oaie]|costruit[oaie]|creat[oaie]|ontwikkeld|gebouwd|opgebouwd|gemaakt|desenvolvid[oa]s?|construíd[oa]s?|criad[oa]s?|(?:construy|desarroll)(?:ó|eron)|cre(?:ó|aron)|construiu|desenvolveu|costruì|sviluppò) (?:[\p{L}-]+ )?${AGENT}(?:[\p{L}-]+ ){0,2}?(?:from|out of|with|using|mit|avec|con|met|com|on the basis of|aus|auf (?:der )?(?:basis|grundlage) (?:von|des|der|unserer|unseres)|à partir d(?:e|es|u|${A})|sur la base d(?:e|es|u|${A})|a partir d(?:e|el|o|a|os|as)|sobre la base de|con base en|a partire d(?:a|al|allo|alla|ai|agli|alle|all${A})|sulla base d(?:i|ei|el|ella|egli|elle)|uit|op (?:basis|grond) van|com base n(?:o|a|os|as)|com base em)`,
  ],
});
/** The model is what was made: a model, system or algorithm named before the participle. */
const MODEL_BEFORE = /(?:^|[^\p{L}])(?:models?|modell\p{L}*|\p{L}+modell\p{L}*|modèles?|modelos?|modell[oi]|algorithm\p{L}*|algoritm\p{L}*|algorithmes?|systems?|système|sistema|systeem|classifier|klassifikator|classificateur|clasificador|classificatore|classificador)(?![\p{L}])/u;
/** Records counted (not a year: "from 2019") or a history ("storico", "histórico", "Historie"). */
const HISTORY = /(?:^|[^\p{L}])(?:hist[oó]r|storic|archiv|arquiv)\p{L}*/u;
const FIRST_FIGURE = /\d[\d.,'’]*(?: \d{3})*/u;
function recordsOrHistory(object: string): boolean {
  if (HISTORY.test(object.slice(0, 60))) return true;
  const figure = FIRST_FIGURE.exec(object);
  return figure !== null && figure.index <= 40 && !/^(?:19|20)\d\d$/u.test(figure[0]) && COUNTED.test(object.slice(figure.index));
}

/**
 * The category named right after a cue: its object, or, for a field ("Trained on: 2.3 million
 * motor claims"), the value after the colon.
 */
function categoryAfter(s: Sentence, at: number): Hit | undefined {
  const colon = /^\s*:\s*/u.exec(s.text.slice(at - s.start));
  const from = colon === null ? at : at + colon[0].length;
  return categoryOf(s, from, objectEnd(s, from));
}

/** Where the object starting at `start` ends: the first clause break, or OBJECT_MAX. */
function objectEnd(s: Sentence, start: number): number {
  const rest = s.lower.slice(start - s.start, start - s.start + OBJECT_MAX);
  const end = OBJECT_END.exec(rest);
  return start + (end === null ? rest.length : end.index);
}

/** A figure and the words after it: "rund 180.000 bei uns abgeschlossenen Konsumkrediten". */
const COUNTED = /\d[\d.,'’]*(?: \d[\d.,'’]*)*\s+([\p{L}-]+(?: [\p{L}-]+){0,4})/u;
/** How far after the origin preposition the figure may start ("aus rund 180.000"). */
const COUNTED_REACH = 12;

/**
 * The category named in `[start, end)` of the sentence: the span up to its first source cue
 * ("data obtained from …" stops at "obtained"), if a content word is left once the words of
 * NOT_A_CATEGORY are set aside.
 */
function categoryOf(s: Sentence, start: number, end: number): Hit | undefined {
  if (end <= start) return undefined;
  let text = s.lower.slice(start - s.start, end - s.start);
  const source = findAll(SOURCE, text, text)[0];
  const cut = OBJECT_ORIGIN.exec(text);
  const stop = Math.min(source?.start ?? text.length, cut === null ? text.length : cut.index);
  text = text.slice(0, stop);
  const words = text.split(/[^\p{L}\d'’-]+/u).filter((w) => w !== '');
  // Portuguese "mais de 250 mil" is "more than", not the French "but".
  if (words.length === 0 || (NOT_AN_OBJECT.test(words[0]!) && !(words[0] === 'mais' && words[1] === 'de'))) return undefined;
  const isContent = (w: string) => w.length >= 3 && !/^[\d.,'’-]+$/u.test(w) && !NOT_A_CATEGORY.has(w) && !NOT_A_CATEGORY.has(w.replace(/^(?:l|d)['’]/u, ''));
  const content = words.some(isContent);
  // "grandi quantità di testo", "large amounts of text": text in general, uncounted, is nothing concrete.
  if (content && !/\d/u.test(text) && words.some((w) => VAGUE_QUANTITY.has(w)) && words.filter(isContent).every((w) => VAGUE_QUANTITY.has(w) || VAGUE_TEXT.has(w))) return undefined;
  if (!content) {
    // Generic data cut at its origin ("anonymisierte Daten aus rund 180.000 … Konsumkrediten"): the
    // counted records after the figure are what the data consists of.
    // Only after an origin preposition ("aus", "from", "de"), not after a supply verb: "datos facilitados
    // por las 14 marcas" counts the suppliers, not the records.
    const byOrigin = cut !== null && cut.index === stop && (source === undefined || source.start > stop);
    const rest = s.lower.slice(start - s.start + stop, end - s.start);
    const counted = COUNTED.exec(rest);
    if (!byOrigin || counted === null || counted.index > COUNTED_REACH) return undefined;
    const noun = counted[1]!.split(' ').find((w) => w.length >= 4 && isContent(w));
    if (noun === undefined) return undefined;
    const at = start + stop + counted.index + counted[0].indexOf(noun);
    return { start: at, end: at + noun.length };
  }
  const lead = text.length - text.trimStart().length;
  return { start: start + lead, end: start + text.trimEnd().length };
}

/**
 * A category stated in a context sentence: another training statement's object, a "consists
 * of" object, or, under a training heading, an adaptation's object or a list item.
 */
function categoryIn(d: Discourse, s: Sentence, finalVerb: boolean, trainingSection: boolean, listItem = false): Hit | undefined {
  const own = statementIn(d, s, finalVerb, trainingSection)?.category;
  if (own !== undefined) return own;
  for (const hit of hitsIn(s, CONTAINS)) {
    if (isNegated(d, s, hit.start, hit.end)) continue;
    const category = categoryOf(s, hit.end, objectEnd(s, hit.end));
    if (category !== undefined) return category;
  }
  if (listItem) return categoryOf(s, s.start, objectEnd(s, s.start));
  if (!trainingSection) return undefined;
  const element = d.corpus.page.textBlocks[s.blockIndex]?.element?.name;
  if (element === 'li' || element === 'dd' || element === 'td') return categoryOf(s, s.start, objectEnd(s, s.start));
  // Under a training heading, a sentence shaped "<content> from <source>" names its content
  // first ("About 1.2 million de-identified triage records from the … Research Database"),
  // unless it opens on what was trained ("The model is retrained monthly from …").
  const source = sourceIn(d, s);
  if (source !== undefined && source.start > s.start && !namesTrainedThing(s) && !opensOnPronoun(s)) return categoryOf(s, s.start, source.start);
  return undefined;
}

/**
 * A source in the sentence, not negated. `objectFrom` is where the training object starts when
 * the sentence is the training statement itself: a named origin after it may be introduced by a
 * genitive ("treinado com históricos … de clientes do Banco Atlântida").
 */
function sourceIn(d: Discourse, s: Sentence, objectFrom?: number): Hit | undefined {
  return [...hitsIn(s, SOURCE), ...hitsIn(s, SOURCE_ADJECTIVE), ...namedOrigins(d, s, objectFrom)].find(
    (hit) => !isNegated(d, s, hit.start, hit.end) && !aboutTheMaker(d, s, hit) && !onlyWhen(d, hit) && !resultsPublished(d, s, hit) && !evaluationCarriedOut(d, s, hit) && !ACCORDING_TO.test(d.corpus.lower.slice(Math.max(s.start, hit.start - 40), hit.start)),
  );
}

/**
 * A collection verb followed by a date says when, not where: "coletados de janeiro de 2021 a
 * dezembro de 2023", "collected between 2019 and 2023", "gesammelt von 2018 bis 2022".
 */
function onlyWhen(d: Discourse, hit: Hit): boolean {
  return COLLECTED.test(d.corpus.lower.slice(hit.start, hit.end)) && DATE_AFTER.test(d.corpus.lower.slice(hit.end, hit.end + 24));
}
/**
 * Results or tests published somewhere say where a report is, not where data came from: "Os
 * resultados dos testes estão publicados no Relatório de avaliação", "Test results are published on".
 */
function resultsPublished(d: Discourse, s: Sentence, hit: Hit): boolean {
  return PUBLISHED.test(d.corpus.lower.slice(hit.start, hit.end)) && RESULTS.test(d.corpus.lower.slice(s.start, hit.start));
}
/**
 * An evaluation carried out by someone says who tested the model, not where data came from: "a
 * partir de uma avaliação clínica interna conduzida pela Direção Clínica".
 */
function evaluationCarriedOut(d: Discourse, s: Sentence, hit: Hit): boolean {
  return CARRIED_OUT.test(d.corpus.lower.slice(hit.start, hit.end)) && RESULTS.test(d.corpus.lower.slice(Math.max(s.start, hit.start - 60), hit.start));
}
/** "Secondo le informazioni fornite dal produttore": who says so, not where the data came from. */
const ACCORDING_TO = /(?:^|[^\p{L}])(?:according to|laut|gemäß|selon|d['’]après|según|de acuerdo con|secondo|stando a|volgens|segundo|de acordo com)(?:\s+\S+){0,4}\s*$/u;
const CARRIED_OUT = /^(?:carried out|conducted|performed|durchgeführt|réalisée?s?|effectuée?s?|menée?s?|conduite?s?|realizad|efectuad|efetuad|llevad|conducid|conduzid|effettuat|svolt|condott|eseguit|uitgevoerd)/u;
const PUBLISHED = /^(?:published|posted|veröffentlicht|publié|publicad|pubblicat|gepubliceerd)/u;
const RESULTS = /(?:results?|tests?|evaluations?|ergebnisse|résultats?|resultados?|testes|pruebas|risultati|resultaten|evaluaties|avalia(?:ção|ções)|evaluaci(?:ón|ones)|valutazion[ei]|évaluations?)(?![\p{L}])/u;

const COLLECTED = /^(?:collected|gathered|recorded|captured|gesammelt|erhoben|aufgezeichnet|collecté|recueilli|enregistré|recogid|recopilad|recolectad|registrad|raccolt|registrat|verzameld|vastgelegd|coletad|recolhid|registrad)/u;
const MONTHS = String.raw`jan\p{L}*|feb\p{L}*|fév\p{L}*|fev\p{L}*|ene\p{L}*|gen\p{L}*|m[aä]r\p{L}*|abr\p{L}*|apr\p{L}*|avr\p{L}*|ma[iy]o?|mei|juin|jun\p{L}*|giu\p{L}*|jul\p{L}*|juil\p{L}*|lug\p{L}*|aug\p{L}*|août|ago\p{L}*|sep\p{L}*|set\p{L}*|o[ck]t\p{L}*|out\p{L}*|ott\p{L}*|nov\p{L}*|d[eé]c\p{L}*|dez\p{L}*|dic\p{L}*`;
const DATE_AFTER = new RegExp(String.raw`^ ?(?:(?:the )?(?:years? )?(?:\d{4}|(?:${MONTHS})(?![\p{L}]))|(?:\p{L}+ )?(?:\d{1,2}(?:º|\.)? (?:de )?)?(?:${MONTHS}) (?:de |del )?\d{4})`, 'u');

/**
 * Who made or supplies the model, not where its data came from: a cue inside a "developed by"
 * clause ("desenvolvido pela equipe de dados da própria CMTV"), or a supply verb whose subject
 * is the model itself ("É fornecido pela Agririsco Tecnologia", "The model is supplied by …").
 */
function aboutTheMaker(d: Discourse, s: Sentence, hit: Hit): boolean {
  const before = d.corpus.lower.slice(Math.max(s.start, hit.start - MAKER_REACH), hit.start);
  if (MAKER_CLAUSE.test(before)) return true;
  return MODEL_SUBJECT.test(d.corpus.lower.slice(s.start, hit.start).trim());
}
const MAKER_REACH = 40;
const MAKER_CLAUSE = /(?:developed|built|made|created|designed|configured|maintained|entwickelt|gebaut|konfiguriert|eingerichtet|gepflegt|développée?s?|conçue?s?|configurée?s?|entretenue?s?|desarrollad[oa]s?|creado|configurad[oa]s?|mantenid[oa]s?|sviluppat[oa]|realizzat[oa]|configurat[oa]|mantenut[oa]|ontwikkeld|gebouwd|geconfigureerd|onderhouden|desenvolvid[oa]s?|criad[oa]|mantid[oa]) (?:(?:by|von|durch|par|por|pela|pelo|da|dal|dalla|door)(?: \S+){0,4})? ?$/u;
const MODEL_SUBJECT =
  /^(?:(?:the|this|our|an?|ein|eine|une?|una|uno|um|uma|een|der|die|das|dieses|diese|unser|unsere|le|la|l['’]|ce|cette|notre|el|la|este|esta|nuestro|nuestra|il|lo|la|questo|questa|nostro|nostra|het|de|dit|deze|ons|onze|o|a|esse|essa|este|esta|nosso|nossa) ?(?:\p{L}+ )?(?:model|modell|modèle|modelo|modello|system|systeem|système|sistema|software|logiciel|programa|programm|programma|tool|werkzeug|outil|herramienta|strumento|ferramenta|technology|technik|technologie|tecnología|tecnologia|engine|moteur|motor|motore|solution|lösung|solución|soluzione|oplossing|solução|platform|plattform|plateforme|plataforma|piattaforma|\p{L}*verarbeitung|processing|traitement|procesamiento|elaborazione|verwerking|processamento|documentation|dokumentation|documentación|documentazione|documentatie|documentação|description|beschreibung|descripción|descrizione|beschrijving|descrição)(?: [\p{L}-]+){0,4} ?)?(?:(?:is|was|wird|wurde|est|es|fue|è|wordt|werd|é|foi|stammt|kommt|comes|came|vient|viene|proviene|komt|kwam|vem|veio|(?:can|kann|peut|puede|può|kan|pode) (?:be|être|ser|essere|worden)?)(?: \p{L}+)?)?$/u;

/**
 * A named organisation or register the data came from: "from HM Land Registry", "de clientes do
 * Banco Atlântida", "sentencias del Tribunal Supremo", "aus dem Archiv der Stadt Köln" (a
 * preposition of origin, then a capitalised name that is not a month or the sentence's start).
 */
const NAMED_NAME = String.raw`(\p{Lu}[\p{L}\d&.'’-]*(?: \p{Lu}[\p{L}\d&.'’-]*)*)`;
/** "from" itself, in the languages that do not capitalise common nouns (German does: no name can be told there). */
const FROM_NAME = new RegExp(String.raw`(?<![\p{L}\d])(?:from|uit|desde)(?: (?:the|het|de|el|la|los|las))? ${NAMED_NAME}`, 'gu');
/** The genitives that also say "from" in the training object: "des", "del", "do", "da", "van", "di" … */
const OF_NAME = new RegExp(String.raw`(?<![\p{L}\d])(?:(?:from|uit|desde|des|du|de|del|dal|dalla|dai|dagli|dalle|di|della|dello|dei|degli|delle|do|da|dos|das|van)(?: (?:the|la|le|les|el|los|las|il|lo|gli|o|a|os|as|het|de))? |(?:dell|dall|d)['’])${NAMED_NAME}`, 'gu');
const MONTH_OR_DAY = /^(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Januar|Februar|März|Juni|Juli|Oktober|Dezember|Janvier|Février|Mars|Avril|Mai|Juin|Juillet|Août|Septembre|Octobre|Novembre|Décembre|Enero|Febrero|Marzo|Abril|Mayo|Junio|Julio|Agosto|Septiembre|Octubre|Noviembre|Diciembre|Gennaio|Febbraio|Aprile|Maggio|Giugno|Luglio|Settembre|Ottobre|Dicembre|Januari|Februari|Maart|Mei|Augustus|Janeiro|Fevereiro|Março|Maio|Junho|Julho|Setembro|Outubro|Novembro|Dezembro)$/u;

const LEVEL_CODE = /^\p{Lu}\d+$/u;
/** A roman numeral or a single letter names no one either ("fototipi da I a V"). */
const ROMAN = /^(?:[IVXLC]+|\p{Lu})$/u;

function namedOrigins(d: Discourse, s: Sentence, objectFrom: number | undefined): Hit[] {
  const out: Hit[] = objectFrom === undefined ? [] : ownedOrigins(d, s, objectFrom);
  if (/^de/i.test(d.corpus.page.lang ?? '')) return out;
  const re = objectFrom === undefined ? FROM_NAME : OF_NAME;
  re.lastIndex = objectFrom === undefined ? 0 : objectFrom - s.start;
  for (let m = re.exec(s.text); m !== null && out.length < 4; m = re.exec(s.text)) {
    const first = m[1]!.split(' ')[0]!;
    // A code such as a level or grade ("de A1 a C1", "de B2") names no one.
    if (!MONTH_OR_DAY.test(first) && !LEVEL_CODE.test(first) && !ROMAN.test(first)) out.push({ start: s.start + m.index, end: s.start + m.index + m[0].length });
  }
  return out;
}

/**
 * The organisation's own places inside a training object: a preposition of place or origin, then
 * a first-person possessive ("tomadas en nuestras tres básculas", "in onze trams en bussen", "aus
 * unseren Filialen"): the data is the site's own. Not the model itself ("in our model").
 */
function ownedOrigins(d: Discourse, s: Sentence, objectFrom: number): Hit[] {
  const re = /^fr/i.test(d.corpus.page.lang ?? '') ? OWNED_FR : OWNED;
  re.lastIndex = Math.max(0, objectFrom - s.start);
  const m = re.exec(s.lower);
  if (m === null || findAll(TRAINED_THING, m[0], m[0]).length > 0) return [];
  return [{ start: s.start + m.index, end: s.start + m.index + m[0].length }];
}
const OWNED_WORDS = String.raw`our|unser(?:e|em|en|er|es)?|notre|nuestr[oa]s?|nostr[oaie]|onze|noss[oa]s?`;
/** Where, not whose: "les fiches de poste de nos entrepôts" names a kind of content, "tomadas en nuestras básculas" a place. */
const AT_OWN = String.raw`(?<![\p{L}])(?:in|at|across|from|im|in|aus|bei|an|dans|chez|depuis|en|em|no|na|nos|nas|nel|nella|nei|nelle|negli|presso|dai|dalle|dagli|dal|dalla|uit|bij|desde)`;
const OWNED = new RegExp(String.raw`${AT_OWN} (?:${OWNED_WORDS}) (?:[\d.,]+ )?(?:[\p{L}-]+ )?[\p{L}-]{3,}`, 'gu');
const OWNED_FR = new RegExp(String.raw`${AT_OWN} (?:${OWNED_WORDS}|nos) (?:[\d.,]+ )?(?:[\p{L}-]+ )?[\p{L}-]{3,}`, 'gu');

// ---------------------------------------------------------------------------------------------
// The control

/** A calibration participle, in the seven languages. */
const CALIBRATED = /(?<![\p{L}])(?:calibrated|calibrée?s?|calibrad[oa]s?|calibrat[oaie]|kalibriert|gekalibreerd)(?![\p{L}])/u;

/** Training-data pages as URL path words of a visible link. */
const TRAINING_HREF = /training[-_]?data|data[-_]?provenance|datasheets?[-_]for[-_]datasets|data[-_]?cards?|trainingsdaten|donnees[-_]d[-_]?entrainement|datos[-_]de[-_]entrenamiento|dati[-_]di[-_]addestramento|trainingsdata|dados[-_]de[-_]trein/;

export const TRAINING_EXAMPLES = ['trained on <content>', 'learned from', 'training data', 'licensed from', 'mit … trainiert', 'entraîné sur', 'se entrenó con', 'addestrato su', 'getraind op', 'treinado com'];

const WHAT = 'training-data or data-provenance disclosure';

/** The outcomes of this control. */
export const outcomes = {
  /** A training statement with a category or a source in its context; the evidence quotes what decided. */
  disclosed: (corpus: Corpus, hit: Hit): Outcome => quoted(corpus, 'pass', 'Training-data disclosure', hit),
  /** A visible link naming training data or provenance (not followed). */
  linked: (corpus: Corpus, link: Target): Outcome => linked(corpus, 'pass', 'Training-data page linked (not followed)', link),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered(WHAT, page),
  /** Nothing concrete about the training data of a system the page discloses. */
  notDisclosed: (): Outcome => notFound(WHAT, { examples: TRAINING_EXAMPLES }),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.training-data-provenance',
  branch: 'ai-governance',
  framework: 'Map',
  requirement: 'Page discloses training-data, dataset-source, data-origin, or dataset-provenance information.',
  // Warning: provenance is a documentation duty (AI RMF Map, EU AI Act art. 53 summaries) that
  // is often met on a separate page; missing here is a gap to review.
  severity: 'warning',
  evaluate(page) {
    const corpus = corpusOf(page);
    const data = trainingDataOf(discourseOf(page));
    const concrete = data.statements.find((s) => s.category !== undefined || s.source !== undefined);
    if (concrete !== undefined) return outcomes.disclosed(corpus, concrete.category ?? concrete.source!);
    if (data.link !== undefined) return outcomes.linked(corpus, data.link);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notDisclosed();
  },
};
