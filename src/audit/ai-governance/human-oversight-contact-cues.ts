// The cue words of ai-governance.human-oversight-contact, in EN, DE, FR, ES, IT, NL and PT (see
// human-oversight-contact.ts for how they combine). Compiled once as `Lexeme`s (lexicon.ts):
// lower-case sources on the lower-cased sentence, word boundaries on both sides, bounded gaps
// only.
//
// An oversight statement is a sentence that says a person looks at what the AI system did, or
// that the reader can get a person to: a review cue with a person near it ("a claims handler
// checks the AI assessment", "von einer Fachärztin überprüft", "la revisa un técnico"), a
// request for a review ("you can request a review", "eine erneute Prüfung verlangen", "potete
// chiederne la revisione"), a hand-over to a person ("ask Ava to hand over to a human agent",
// "transférer la conversation à un membre de notre service client", "door te verbinden met een
// medewerker"), an appeal ("appeal the decision", "bezwaar maken", "Widerspruch einlegen"), or a
// fixed phrase ("human review", "menschliche Überprüfung", "contrôle humain", "revisão humana").
import { A, H, lexeme } from './lexicon.ts';

/** A person who can look at a case: "staff", "a member of our team", role nouns ("underwriter", "Sachbearbeiterin", "conseiller", "gestor", "perito", "intercedent", "atendente"). */
const PERSON = [
  // English
  String.raw`humans?|persons?|people|someone|somebody|real person|staff|team|teams|colleagues?|employees?|members? of (?:staff|(?:our|the) \p{L}+(?: \p{L}+)?)|human agents?|live agents?|(?:customer (?:service|care|support)|support|service) (?:agents?|team|staff|desk)`,
  String.raw`advis[eo]rs?|officers?|specialists?|experts?|editors?|sub${H}editors?|reviewers?|moderators?|clinicians?|doctors?|gps?|nurses?|radiologists?|radiographers?|dermatologists?|pharmacists?|vets?|veterinar\p{L}*|lawyers?|solicitors?|attorneys?|paralegals?|counsel|brokers?|underwriters?|(?:claims? )?handlers?|caseworkers?|case workers?|recruiters?|hiring managers?|teachers?|invigilators?|examiners?|assessors?|graders?|planners?|engineers?|technicians?|analysts?|consultants?|managers?|supervisors?|representatives?|operators?|cartographers?|translators?|journalists?|surveyors?|valuers?|inspectors?|auditors?|approvers?|pathologists?|agronomists?|committee|panel|tutors?|mentors?|instructors?|lecturers?|professors?|counsel(?:l)?ors?`,
  // German
  String.raw`mensch\p{L}*|person(?:en)?|mitarbeiter\p{L}*|sachbearbeiter\p{L}*|berater(?:in|innen|n)?|kolleg\p{L}*|ärzt\p{L}*|arzt|redaktion|redakteur\p{L}*|expert(?:e|en|in|innen)|fachleute|fachkr(?:aft|äfte)|(?:übungs|team|abteilungs|bereichs|kurs|studien|schicht)leitung\p{L}*|prüfer(?:in|innen|n)?|gutachter\p{L}*|lehrkr(?:aft|äfte)|lehrende\p{L}*|lehrer\p{L}*|pflegekr(?:aft|äfte)|jurist\p{L}*|anwält\p{L}*|anwalt|ansprechpartner\p{L}*|kundenservice|kundendienst|techniker\p{L}*|radiolog(?:e|en|in|innen)|\p{L}*kommissär\p{L}*|beamt(?:e|er|in|innen)|sachverständig\p{L}*`,
  // French
  String.raw`humains?|personnes?|équipes?|collaborat(?:eur|rice)s?|conseill(?:er|ère)s?|agents? humains?|membres?|employé(?:e|s|es)?|médecins?|infirmi(?:er|ère)s?|experts?|juristes?|avocat(?:e|s|es)?|chargé(?:e|s|es)?|gestionnaires?|responsables?|enseignant(?:e|s|es)?|professeur(?:e|s|es)?|correct(?:eur|rice)s?|rédact(?:eur|rice)s?|rédaction|journalistes?|radiologues?|radiologistes?|recrut(?:eur|euse)s?|coordonnat(?:eur|rice)s?|technicien(?:ne|s|nes)?|opérat(?:eur|rice)s?|spécialistes?|service client`,
  // Spanish
  String.raw`human[oa]s?|personas?|equipos?|emplead[oa]s?|gestor(?:a|es|as)?|agentes? humanos?|asesor(?:a|es|as)?|médic[oa]s?|técnic[oa]s|técnico|abogad[oa]s?|especialistas?|expert[oa]s?|profesor(?:a|es|as)?|agrónom[oa]s?|radiólog[oa]s?|agentes?(?! virtual| conversacional| de ia| automático)|peritos?|operador(?:a|es|as)?|responsables?|revisor(?:a|es|as)?|miembros?|compañer[oa]s?|atención al cliente`,
  // Italian
  String.raw`uman[oaie]|persone?|operator[ei]|operatric[ei]|personale|medic[oi]|mediche?|consulent[ei]|avvocat[oi]|perit[oi]|termograf[oi]|tecnic[oi]|espert[oi]|squadra|dipendent[ei]|colleg(?:a|hi|he)|addett[oiae]|responsabil[ei]|revisor[ei]|traduttor[ei]|traduttric[ei]|redattor[ei]|redazione|insegnant[ei]|docent[ei]|radiolog[oi]|radiologhe|radiologa|incaricat[oiae]|membr[oi]`,
  // Dutch
  String.raw`mens(?:en)?|persoon|personen|medewerker\p{L}*|collega\p{L}*|adviseur\p{L}*|arts|artsen|huisarts\p{L}*|doktersassistent\p{L}*|assistente|praktijkondersteuner\p{L}*|verpleegkundige\p{L}*|specialist\p{L}*|deskundige\p{L}*|intercedent\p{L}*|redactie|redacteur\p{L}*|behandelaar\p{L}*|beoordelaar\p{L}*|jurist\p{L}*|advocat\p{L}*|advocaat|klantenservice|docent\p{L}*|leraar|leraren|radioloog|radiologen|ambtena\p{L}*|actuaris\p{L}*|consulent\p{L}*`,
  // Portuguese
  String.raw`pessoas?|equipe|equipa|funcionári[oa]s?|colaborador(?:a|es|as)?|atendentes?|agentes? humanos?|consultor(?:a|es|as)?|médic[oa]s?|advogad[oa]s?|gestor(?:a|es|as)?|analistas?|curador(?:a|es|as)?|curadoria|membros?|radiologistas?|professor(?:a|es|as)?|técnic[oa]s?`,
];

export const PERSON_WORDS = lexeme({ lower: PERSON });

/**
 * The same role nouns as the head of a German or Dutch compound ("Kreditsachbearbeiterin",
 * "Fachärztin", "lezersredacteur"): matched from inside the word, with no word start, which
 * keeps the search linear (a leading `\p{L}*` would rescan every word).
 */
export const PERSON_COMPOUND = /(?<=\p{L})(?:sachbearbeiter|berater|ärzt|arzt|prüfer|anwalt|anwält|redakteur|redacteur|leitung|assistent|medewerker|lehrkraft|lehrkräfte|lehrer|team|person|docent|adviseur|expert|spezialist|specialist|deskundige|inspecteur|controleur|beoordelaar|kommission|commissie)\p{L}{0,8}(?![\p{L}\p{N}])/gu;

/** Something a review looks at that is a machine, not a person: "checked by an automated system" is no oversight. */
const MACHINE = String.raw`(?:ai|ia|ki|program\p{L}*|logiciel|informati\p{L}*|informáti\p{L}*|computador|ordinateur|ordenador|rechner|automated|automatic|automatisch\p{L}*|automatique|automático|automatico|automático|artificial|machine|computer|software|algorithm\p{L}*|algoritm\p{L}*|model\p{L}*|system\p{L}*|sistem\p{L}*|système|tools?|bots?|chatbots?|assistant|assistent|asistente|engine|classifier|filters?|sensors?|cameras?|outil|herramienta|strumento|ferramenta)`;

/**
 * Review cues, any strength: a verb or noun of looking at a case again ("review", "checks",
 * "looks at", "überprüft", "vérifie", "revisa", "verificato", "bekijkt", "revê"). Alone they
 * are not oversight ("Check the app", "Check for a service problem"): a person or a request must
 * go with them.
 */
export const REVIEW = lexeme({
  lower: [
    // English
    String.raw`(?:re${H})?review(?:s|ed|ing)?|reconsider\p{L}*|re${H}?assess\p{L}*|re${H}?examin\p{L}*|re${H}?evaluat\p{L}*|(?:double${H})?check(?:s|ed|ing)?|verif(?:y|ies|ied|ying|ication)|look(?:s|ed|ing)? (?:again|at|into|over)|take (?:another|a second) look|second opinion|overs(?:ee|ees|een|aw|ight)|supervis(?:e|es|ed|ing|ion)|approv(?:e|es|ed|al|ing)|signs? off|reads? and reports?|read(?:s|ing)? (?:it|them|each|every) (?:\p{L}+ ){0,2}?(?:against|before)|(?:is|are|was|were|be|been|gets?) (?:\p{L}+ ){0,2}?read by`,
    // German
    String.raw`(?:über|nach|gegen)?prüf(?:t|en|e|st|ung|ungen)|(?:über|nach|gegen)?geprüft|kontroll(?:e|en|iert|ieren|iere)|begutacht\p{L}*|zweit(?:e|en) meinung|zweitmeinung|neubewert\p{L}*|(?:sieht|schaut|sehen|schauen) (?:\p{L}+ ){0,3}?(?:an|nach|durch)|angesehen|angeschaut|freigegeben|freigeben|beaufsichtig\p{L}*|aufsicht|eingreifen|eingriff|gelesen (?:wird|werden|wurde)|(?:sieht|schaut|sehen|schauen) sich (?:\p{L}+ ){0,10}?(?:an|durch)(?![\p{L}])`,
    // French
    String.raw`vérifi\p{L}*|vérification|révis\p{L}*|revoi[rt]|revoient|revu(?:e|s|es)?|réexam\p{L}*|(?:second|deuxième) avis|contrôl\p{L}*|supervis\p{L}*|relu(?:e|s|es)?|reli[rt]|relisent|relecture|lue? par|repren(?:ne|nent|dre|d|dra)|repris(?:e|es)?|réétudi\p{L}*|valid(?:e|ent|é|ée|és|ées|er|ation)|examin\p{L}*|réévalu\p{L}*|révision|intervention`,
    // Spanish
    String.raw`revis(?!ta)\p{L}*|supervis\p{L}*|verific\p{L}*|comprob\p{L}*|leíd[oa]s? por|analiz\p{L}*|vuelve a (?:mirar|analizar|estudiar|valorar)|control(?:a|an|ado|ada|ados|adas|ar|e)|examin\p{L}*|reexamin\p{L}*|reevalu\p{L}*|reconsider\p{L}*|intervención|segunda opinión`,
    // Italian
    String.raw`rivist[oaie]|rived\p{L}*|revision[ei]|verific\p{L}*|lett[oaie] da|analizz\p{L}*|controll\p{L}*|supervision\p{L}*|esamin\p{L}*|riesam\p{L}*|rivalut\p{L}*|convalid\p{L}*|intervento|secondo parere`,
    // Dutch
    String.raw`bekijk\p{L}*|bekeken|gelezen door|beoordeel\p{L}*|beoordel\p{L}*|controle\p{L}*|controleer\p{L}*|gecontroleerd|toets\p{L}*|getoetst|herbeoordel\p{L}*|heroverweg\p{L}*|nagekeken|nakijk\p{L}*|second opinion|tweede mening|(?:nog eens|opnieuw) (?:\p{L}+ ){0,2}?kijk\p{L}*|kijk\p{L}* (?:\p{L}+ ){0,3}?(?:nog eens|opnieuw|naar)|kijk\p{L}* (?:\p{L}+ ){0,10}?na(?![\p{L}])|her(?:keuring|ziening|controle|onderzoek)\p{L}*|tussenkomst|nazicht`,
    // Portuguese
    String.raw`revisão|revisões|revis(?:ar|a|am|ado|ada|ados|adas|e|em|amos)|revê|revêem|rever|reveja|revejam|reviu|reveem|revist[oa]s?|verific\p{L}*|lid[oa]s? (?:por|pel[oa])|analis\p{L}*|volta(?:r)? a (?:analisar|avaliar|verificar|ver|olhar)|supervis\p{L}*|controla\p{L}*|examin\p{L}*|reexamin\p{L}*|reavali\p{L}*|reanalis\p{L}*|reaprecia\p{L}*|intervenção|segunda opinião`,
  ],
});

/**
 * Review cues strong enough to need only a request, not a named person: "request a review",
 * "reconsider", "re-examine", "eine Überprüfung verlangen", "demander un réexamen", "pedir la
 * revisión", "chiederne la revisione", "een beoordeling aanvragen", "pedir a revisão".
 */
export const STRONG_REVIEW = lexeme({
  lower: [
    String.raw`(?:re${H})?review(?:s|ed|ing)?|reconsider\p{L}*|re${H}?assess\p{L}*|re${H}?examin\p{L}*|re${H}?evaluat\p{L}*|look(?:s|ed|ing)? (?:\p{L}+ ){0,2}?again|take (?:another|a second) look|second opinion`,
    String.raw`überprüf\p{L}*|nachprüf\p{L}*|erneute\p{L}* prüfung|(?:erneut|nochmals|noch einmal) (?:ge)?prüf\p{L}*|neubewert\p{L}*|neubeurteil\p{L}*|zweitbefund\p{L}*|eingreifen`,
    String.raw`réexam\p{L}*|réévalu\p{L}*|revoi[rt]|révision|vérification|intervention|contre-expertise|(?:second|nouvel) examen`,
    String.raw`revis(?!ta)\p{L}*|reexamin\p{L}*|reevalu\p{L}*|reconsider\p{L}*|intervención|segunda lectura`,
    String.raw`rivist[oaie]|rived\p{L}*|revision[ei]|riesam\p{L}*|rivalut\p{L}*|intervento|seconda lettura`,
    String.raw`beoordeling\p{L}*|herbeoordel\p{L}*|heroverweg\p{L}*|(?:nog eens|opnieuw) (?:\p{L}+ ){0,2}?(?:kijk\p{L}*|bekijk\p{L}*|beoordel\p{L}*)|(?:bekijk\p{L}*|beoordeel\p{L}*|beoordel\p{L}*|kijk\p{L}*) (?:\p{L}+ ){0,3}?(?:nog eens|opnieuw)|her(?:keuring|ziening|controle|onderzoek)\p{L}*|tussenkomst|nazicht`,
    String.raw`revisão|revisões|revis(?:ar|a|am|ado|ada|ados|adas|e|em|amos)|revê|rever|reveja|revejam|reexamin\p{L}*|reavali\p{L}*|reanalis\p{L}*|reaprecia\p{L}*|intervenção|segunda leitura`,
  ],
});

/**
 * The reader asking for it, or the case being looked at again: "ask for", "request", "right
 * to", "want … to", "verlangen", "demander", "pedir", "chiedere", "vragen", "pedir"; "again",
 * "erneut", "à nouveau", "de nuevo", "di nuovo", "opnieuw", "novamente".
 */
export const REQUEST = lexeme({
  lower: [
    String.raw`ask(?:s|ed|ing)?|request(?:s|ed|ing)?|right to|entitled to|want(?:s)?|wish(?:es)?|would like|prefer|demand|apply for|again|once more|you can ask|get (?:it|this|them) reviewed`,
    String.raw`verlang\p{L}*|beantrag\p{L}*|anforder\p{L}*|bitten|bitte|recht|wünsch\p{L}*|möchten|erneut|nochmals|noch einmal|lassen`,
    String.raw`demand(?:er|ez|e|ent)|sollicit\p{L}*|droit|souhait\p{L}*|voul(?:ez|ez-vous)|vouloir|à nouveau|de nouveau`,
    String.raw`pedir|pida|pide|piden|solicit\p{L}*|derecho|quier(?:e|es|en)|desea\p{L}*|prefier\p{L}*|de nuevo|nuevamente|otra vez`,
    String.raw`chied\p{L}*|richied\p{L}*|richiesta|diritto|vuoi|volete|desideri|preferisci|di nuovo|nuovamente|nuova`,
    String.raw`vra(?:ag|gen)|aanvra\p{L}*|verzoek\p{L}*|recht|wil(?:t)?|laat|opnieuw|nog eens`,
    String.raw`ped(?:ir|e|em|ido)|peça|peca|solicit\p{L}*|direito|quer(?:e|es)?|desej\p{L}*|prefer\p{L}*|novamente|de novo|nova`,
  ],
});

/** A review by someone named after the cue: "reviewed by a recruiter", "von der Übungsleitung", "par un chargé de recrutement", "da un termografo", "door een intercedent". */
export const BY_SOMEONE = lexeme({
  lower: [
    String.raw`(?:(?:by|von|durch|par|por|pela|pelo|pelos|pelas|da|dal|dalla|dallo|dai|dagli|door) |dall${A} ?)(?:(?:an?|the|one|of|our|each|every|member|members|ein\p{L}*|de[rnms]|die|das|unser\p{L}*|un|une|una|uno|des|nos|notre|nuestr\p{L}*|nostr\p{L}*|il|lo|la|el|los|las|een|onze|het|um|uma|o|os|as|noss\p{L}*|membre|miembro|membro|lid) ){0,4}(?!${MACHINE}(?![\p{L}\p{N}]))\p{L}{3,}`,
  ],
});

/** Human oversight named as such: "human review", "human in the loop", "menschliche Prüfung", "contrôle humain", "revisión humana", "revisione umana", "menselijke tussenkomst", "revisão humana". */
export const HUMAN_OVERSIGHT = lexeme({
  lower: [
    String.raw`human (?:review|reviewers?|oversight|intervention|check|checks|verification|supervision|decision${H}makers?|moderators?|judgement|judgment|involvement|control|assessment|reassessment)|human${H}in${H}the${H}loop|(?:manual|personal|human) (?:review|reassessment|re${H}?examination)`,
    String.raw`menschliche\p{L}* (?:überprüfung|prüfung|aufsicht|kontrolle|eingreifen|intervention|entscheidung|bewertung)|ärztliche\p{L}* (?:kontrolle|prüfung|überprüfung)`,
    String.raw`(?:contrôle|supervision|surveillance|intervention|examen|réexamen|vérification|relecture|validation|révision|revue) humaine?s?|(?:contrôle|vérification|validation) médicale?`,
    String.raw`(?:supervisión|revisión|intervención|control|verificación|validación) humanas?|(?:revisión|supervisión) médica`,
    String.raw`(?:controllo|revisione|verifica|supervisione|intervento|valutazione|convalida) uman[oa]|(?:controllo|verifica) medic[oa]`,
    String.raw`menselijke (?:tussenkomst|controle|beoordeling|toetsing|blik|tussenkomst)`,
    String.raw`(?:revisão|supervisão|intervenção|verificação|validação|avaliação|reavaliação|reanálise) humanas?`,
  ],
});

/**
 * A hand-over to a person, verb first: "hand over to", "speak to", "transférer … à", "hablar
 * con", "chiedere di", "door te verbinden met", "passar … a". The person must follow within
 * HANDOVER_REACH characters ("… a human agent", "… un membre de notre service client").
 */
export const HANDOVER_TO = lexeme({
  lower: [
    String.raw`(?:hand(?:s|ed|ing)?(?: \p{L}+){0,3}? over|hand${H}off|transfer(?:s|red|ring)?|pass(?:es|ed|ing)?|put(?:s|ting)?(?: \p{L}+){0,2}? through|connect(?:s|ed|ing)?|forward(?:s|ed|ing)?|escalat(?:e|es|ed|ing)|speak(?:s|ing)?|talk(?:s|ing)?|chat(?:s|ting)?) (?:\p{L}+ ){0,4}?(?:to|with)`,
    String.raw`(?:weiterleit\p{L}*|weitergeleitet|übergeben|übergibt|verbindet|sprechen) (?:\p{L}+ ){0,4}?(?:an|mit|zu)`,
    String.raw`(?:transf[éè]r\p{L}*|transmet\p{L}*|passer|passe|parler|parlez|échanger|mettre en relation|joindre|rediriger|redirig\p{L}*) (?:\p{L}+ ){0,4}?(?:à|avec)`,
    String.raw`(?:hablar|habla|hable|pasar|pase|transferir|transfiera|derivar|deriva|trasladar|comunicarte|comunicarse) (?:\p{L}+ ){0,4}?(?:con|a)|(?:te |le |lo |la |les )?atien(?:da|de|dan|den)|atendid[oa] por`,
    String.raw`(?:parlare|parla|parli|passare|passa|trasferire|trasferisce|inoltrare|inoltra|mettere in contatto|mette in contatto) (?:\p{L}+ ){0,4}?(?:con|a|ad)|chied(?:ere|i|ete) di`,
    String.raw`(?:doorverbind\p{L}*|door te verbinden|doorverbonden|doorsturen|doorgestuurd|overdragen|overgedragen|spreken|praten) (?:\p{L}+ ){0,4}?(?:met|aan)`,
    String.raw`(?:passar|passe|transferir|transfira|encaminhar|encaminhe|falar|fale|conversar) (?:\p{L}+ ){0,4}?(?:a|com|para)|(?:seja |ser )?atendid[oa] por|(?:o |a |lhe )?atenda`,
  ],
});

/** A hand-over verb at the end of a German or Dutch clause, the person before it: "mit einem Menschen sprechen", "met een medewerker spreken". */
export const HANDOVER_FINAL = lexeme({
  lower: [String.raw`sprechen|reden|weiterleiten|weitergeleitet|verbinden|verbunden|übergeben|spreken|praten|doorverbinden|doorgeven|doorsturen`],
});

/** A person taking over from the system, the person before the verb: "a colleague takes over the conversation", "een collega neemt het gesprek over", "ein Mitarbeiter übernimmt", "un conseiller prend le relais", "un agente se hace cargo", "un operatore subentra", "um atendente assume a conversa". */
export const TAKEOVER = lexeme({
  lower: [
    String.raw`takes? over|take it from there|übernimmt|übernehmen|prend(?:ra)? le relais|prend la main|reprend (?:la conversation|le dossier|l${A}échange)|toma(?:rá)? el relevo|se hace cargo|se hará cargo|toma el control|subentra|prende(?:rà)? in carico|prende il controllo|neemt (?:\p{L}+ ){0,3}?over|overnemen|assume (?:a conversa|o atendimento|o caso|o pedido)`,
  ],
});

/** Asking for a person outright: "ask for a human", "ask to speak to an adviser". */
export const ASK_FOR_PERSON = lexeme({
  lower: [String.raw`ask (?:for|to speak to|to talk to) (?:a |an )?(?:human|person|real person|agent|adviser|advisor|member of (?:staff|the team))`],
});

/** A sales contact, which is no oversight route: "talk to our sales team", "hable con nuestro equipo comercial", "Vertriebsteam". */
export const SALES = lexeme({
  lower: [String.raw`sales|pre${H}sales|commercial|business development|vertrieb\p{L}*|verkauf\p{L}*|commerciaux|commerciale?s?|ventas|comercial(?:es)?|vendite|verkoop\p{L}*|vendas|demo`],
});

/** Contacts for someone other than the person asking for a review: the press, partners, suppliers, job seekers. */
export const NOT_FOR_REVIEW = lexeme({
  lower: [String.raw`press|media|journalists?|partnerships?|suppliers?|investors?|careers?|presse\p{L}*|medien\p{L}*|journalist\p{L}*|lieferant\p{L}*|partenariats?|fournisseurs?|prensa|medios|periodistas|proveedores|stampa|giornalist\p{L}*|fornitori|pers|journalisten|leveranciers|inkoop|imprensa|jornalistas|fornecedores|parcerias`],
});

/** An appeal or objection against an outcome: "appeal", "contest the decision", "Widerspruch einlegen", "contester", "impugnar", "presentare ricorso", "bezwaar maken", "contestar a decisão". */
export const APPEAL = lexeme({
  lower: [
    String.raw`appeal(?:s|ed)?(?! to)|appealing (?:against|the|a|an|this|that|any|your)|contest(?:s|ed|ing)? (?:the|this|that|a|an|any|your|our|its)|challeng(?:e|es|ed|ing) (?:the|this|that|a|an|any|your|how|its)|dispute (?:the|this|a|an|any|your)|object to (?:the|this|a|an|any|your)`,
    String.raw`(?:sie|du) (?:\p{L}+ ){0,8}?widersprechen|(?:eine )?beschwerde (?:\p{L}+ ){0,2}?(?:einlegen|einreichen)|widerspruch (?:\p{L}+ ){0,3}?(?:einlegen|erheben|einzulegen)|einspruch (?:\p{L}+ ){0,3}?(?:einlegen|erheben|einzulegen)|anfecht(?:en|ung)|anzufechten`,
    String.raw`contest(?:er|ez|e|ent)|(?:un |de |former |introduire )recours|faire appel|(?:déposer|faire|adresser) (?:une )?réclamation`,
    String.raw`impugn(?:ar|e|ación)|recurr(?:ir|a|e)|(?:interponer|presentar|presente|interponga) (?:un )?recurso|apelar|apele|oponerse|(?:presentar|presente|interponer) (?:una )?reclamación`,
    String.raw`contesta(?:re|te|rla|rlo)|(?:presentare|proporre|fare) (?:un )?ricorso|impugna(?:re|te|zione)|opporsi|opporti|(?:presentare|presentate|fare|proporre) (?:un )?reclamo`,
    String.raw`bezwaar (?:maken|indienen|aantekenen)|in beroep (?:gaan|te gaan)|beroep (?:aantekenen|instellen)|aanvecht\p{L}*|(?:een )?klacht (?:indienen|in te dienen)`,
    String.raw`contestar|conteste|contestação|recorrer d[ae]|(?:interpor|apresentar) (?:um )?recurso|opor-se|(?:apresentar|fazer|apresente) (?:uma )?reclamação`,
  ],
});

/** Reviews that are ratings of a product or place, not a look at a case: "1,204 customer reviews", "write your own review", "reviews from guests". */
export const RATINGS = lexeme({
  lower: [
    String.raw`(?:\d[\d,.]*|customer|guest|user|product|star|verified|buyer|reader|google|online|helpful|latest|recent|write (?:a|your(?: own)?)|leave (?:a|your)|read (?:the|all|our)?) ?(?:\p{L}+ )?reviews?|reviews? (?:from|by|of) (?:\p{L}+ )?(?:customers?|guests?|users?|buyers?|readers?|people|travell?ers)|reviews? \(\d+\)|(?:product|customer|guest) reviews?`,
  ],
});

/** A review of a document, not of a case: "reviews this policy every six months". */
export const DOCUMENT_OBJECT = lexeme({
  lower: [
    String.raw`(?:this|the|our|these) (?:policy|policies|page|statement|guidelines|document|notice)|(?:diese|unsere|die) (?:richtlinie|seite|erklärung)|(?:cette|la|notre) (?:politique|charte|page)|(?:esta|la|nuestra) (?:política|página)|(?:questa|la|nostra) (?:politica|pagina)|(?:dit|het|ons) (?:beleid|reglement)|(?:esta|a|nossa) (?:política|página)`,
  ],
});

/** What an AI system produces or decides, which a person reviews: "decision", "result", "answer", "score", "Entscheidung", "décision", "respuesta", "valutazione", "uitkomst", "resposta". */
export const OUTPUT = lexeme({
  lower: [
    // A mistake in what the system made ("Found a mistake?", "if the outline is wrong"), in every language.
    String.raw`mistakes?|errors?|wrong|incorrect|inaccurate|fehler\p{L}*|falsch\p{L}*|erreurs?|erron\p{L}*|inexact\p{L}*|errores|equivocad\p{L}*|errat[oaie]|sbagliat\p{L}*|fout(?:en|e)?|onjuist\p{L}*|erros?|errad[oa]s?`,
    String.raw`system|model|algorithm|tool|decisions?|results?|outcomes?|answers?|repl(?:y|ies)|responses?|scores?|assessments?|estimates?|valuations?|recommendations?|suggestions?|predictions?|forecasts?|classifications?|flag(?:s|ged)?|alerts?|summar(?:y|ies)|translations?|transcripts?|outputs?|match(?:es)?|rankings?|assignments?|assistants?|chatbots?|assistent(?:in)?|asistentes?|assistente|assistentes|(?:mis)?classified|classificad[oa]s?|clasificad[oa]s?|classificat[oaie]|classifiée?s?|geclassificeerd|eingestuft|triagem|triage|triaje`,
    String.raw`system\p{L}*|modell\p{L}*|algorithm\p{L}*|entscheidung\p{L}*|ergebnis\p{L}*|antwort\p{L}*|bewertung\p{L}*|einschätzung\p{L}*|empfehlung\p{L}*|vorschl(?:ag|äge)\p{L}*|prognose\p{L}*|zusammenfassung\p{L}*|rückmeldung\p{L}*|bescheid\p{L}*|befund\p{L}*|zuweisung\p{L}*|zuteilung\p{L}*`,
    String.raw`système|modèle|algorithme|outil|décisions?|résultats?|réponses?|scores?|notes?|évaluations?|estimations?|recommandations?|suggestions?|prédictions?|prévisions?|classements?|alertes?|résumés?|traductions?|orientations?|corrections?|affectations?`,
    String.raw`sistema|modelo|algoritmo|herramienta|decisi(?:ón|ones)|resultados?|respuestas?|puntuaci(?:ón|ones)|evaluaci(?:ón|ones)|estimaci(?:ón|ones)|recomendaci(?:ón|ones)|sugerencias?|predicci(?:ón|ones)|previsi(?:ón|ones)|alertas?|resúmenes|resumen|traducci(?:ón|ones)|clasificaci(?:ón|ones)|asignaci(?:ón|ones)`,
    String.raw`sistema|modello|algoritmo|strumento|decision[ei]|risultat[oi]|rispost[ae]|punteggi[o]?|valutazion[ei]|stim[ae]|raccomandazion[ei]|suggeriment[oi]|prevision[ei]|avvis[oi]|riassunt[oi]|traduzion[ei]|classificazion[ei]|anomali[ae]|referti?|assegnazion[ei]`,
    String.raw`systeem|model|algoritme|besluit\p{L}*|beslissing\p{L}*|uitkomst\p{L}*|resultat\p{L}*|antwoord\p{L}*|score\p{L}*|inschatting\p{L}*|advie[sz]\p{L}*|voorspelling\p{L}*|samenvatting\p{L}*|vertaling\p{L}*|match\p{L}*|uitslag\p{L}*|toewijzing\p{L}*`,
    String.raw`sistema|modelo|algoritmo|ferramenta|decis(?:ão|ões)|resultados?|respostas?|pontua(?:ção|ções)|avalia(?:ção|ções)|estimativas?|recomenda(?:ção|ções)|sugest(?:ão|ões)|previs(?:ão|ões)|alertas?|resumos?|tradu(?:ção|ções)|classifica(?:ção|ções)|laudos?|atribui(?:ção|ções)`,
  ],
});

/** Link names and URL words of a contact or review route ("review request form", "Kontaktformular", "formulaire de réclamation", "bezwaarformulier"). */
export const CONTACT_NAME = lexeme({
  lower: [
    String.raw`contact(?:s| us| form)?|get in touch|email us|e-mail us|write to us|call us|support|customer (?:service|care|support)|help ?desk|help cent(?:er|re)|feedback|complaints?|appeals?|(?:\p{L}+ ){0,2}?(?:review|reconsideration|appeal|correction|objection|error|mistake|problem) (?:request |report )?form|report (?:an? )?(?:error|mistake|problem)|request (?:a )?(?:human )?review|ombuds(?:man|person)`,
    String.raw`kontakt\p{L}*|schreiben sie uns|kundenservice|kundendienst|beschwerde\p{L}*|widerspruch\p{L}*|einspruch\p{L}*|\p{L}*formular`,
    String.raw`nous contacter|contactez${H}nous|écrivez${H}nous|service client|réclamations?|recours|formulaire(?: \p{L}+){0,3}`,
    String.raw`contacto|cont[aá]ct(?:enos|anos|a)|escr[ií]b(?:enos|anos)|atención al cliente|reclamaci(?:ón|ones)|formulario(?: \p{L}+){0,3}`,
    String.raw`contatt\p{L}*|scriv(?:ici|eteci)|assistenza clienti|reclam[oi]|ricorso|modulo(?: \p{L}+){0,3}`,
    String.raw`contact(?:formulier)?|klantenservice|klacht\p{L}*|bezwaar\p{L}*|\p{L}*formulier`,
    String.raw`contat(?:o|os|e-nos)|fale conosco|apoio ao cliente|reclama(?:ção|ções)|formulário(?: \p{L}+){0,3}`,
  ],
});

/** The same as URL path words. */
export const CONTACT_HREF = /contact|kontakt|contatt|contat|support|feedback|complaint|beschwerde|widerspruch|reclamation|reclamacion|reclam|klacht|bezwaar|appeal|review[-_]?request|request[-_]?review|revisao|revision|revisione|recours|helpdesk|ombuds|error[-_]?report|report[-_](?:an?[-_])?(?:error|mistake|problem)/;

/** A contact named for review or appeal, in its name or address ("human review request form", "mailto:ai-review@", "/appeals", "bezwaarformulier"): tied to oversight by its name wherever it is. */
export const REVIEW_ROUTE = /review|reconsider|appeal|contest|objection|oversight|human|widerspruch|einspruch|pr(?:ü|ue)fung|recours|contestation|r[ée]examen|revisi[oó]n|revisione|riesame|revis[aã]o|reaprecia(?:ç|c)(?:ã|a)o|ricorso|bezwaar|beoordeling|heroverweging|contesta(?:ç|c)(?:ã|a)o/;

/**
 * A heading that names the review or appeal a reader asks for: "Asking for a review", "Request a
 * human review", "Challenge a decision", "Erneute Prüfung beantragen", "Widerspruch", "Contester
 * une décision", "Demander un réexamen", "Cómo pedir la revisión", "Reclamaciones y recursos",
 * "Come chiedere il riesame", "Zo vraag je een nieuwe beoordeling aan", "Bezwaar maken", "Pedir a
 * reapreciação". A contact under it is for the review.
 */
export const REVIEW_HEADING = lexeme({
  lower: [
    String.raw`(?:ask(?:ing)? for|request(?:ing)?|how to (?:ask for|request|get)|get) (?:a |an |your )?(?:\p{L}+ ){0,2}?(?:review|reconsideration|second look)|review requests?|appeals?|challeng(?:e|ing) (?:a |the |an? )?(?:decision|result|outcome)|contest(?:ing)? (?:a |the )?(?:decision|result)|complaints? about (?:a |the )?decision|(?:second|human|manual|new|further) (?:reviews?|looks?|opinions?)`,
    String.raw`(?:erneute|menschliche|zweite) (?:\p{L}+ ){0,1}?(?:prüfung|durchsicht|meinung)|überprüfung beantragen|prüfung beantragen|widerspruch|einspruch`,
    String.raw`(?:demander|obtenir) (?:un |une )?(?:\p{L}+ ){0,1}?(?:réexamen|révision|intervention humaine)|contester (?:une |la |cette )?décision|recours|réexamen|(?:second|nouvel) examen|examen humain`,
    String.raw`(?:pedir|solicitar|cómo pedir|cómo solicitar) (?:la |una )?(?:\p{L}+ ){0,1}?revisión|revisión (?:de (?:la|su) )?(?:decisión|puntuación|solicitud)|reclamaci(?:ón|ones)|(?:revisión|reclamaciones) y recursos|recurso de (?:reposición|alzada)|(?:segunda|nueva) revisión|revisión humana`,
    String.raw`(?:chiedere|richiedere|come chiedere|come richiedere) (?:il |la |un |una )?(?:riesame|revisione)|riesame|ricorso|contestare (?:la |una )?decisione|(?:seconda|nuova) (?:revisione|valutazione)|revisione umana`,
    String.raw`(?:nieuwe beoordeling|herbeoordeling|heroverweging) (?:\p{L}+ ){0,2}?(?:aan)?vra\p{L}*|bezwaar(?: maken)?|herbeoordeling|heroverweging|(?:tweede|nieuwe|menselijke) beoordeling`,
    String.raw`(?:pedir|solicitar|como pedir|como solicitar) (?:a |uma )?(?:\p{L}+ ){0,1}?(?:revisão|reapreciação|reanálise)|contestar (?:a |uma )?decisão|(?:revisão|reclamações) e recursos|(?:segunda|nova) (?:revisão|análise)|revisão humana`,
  ],
});

/** A request or form word, which makes a review-named link a route rather than a page about reviews ("reconsideration request", "Widerspruchsformular", "formulaire de recours"). */
export const REQUEST_FORM = /request|form|antrag|formular|demande|formulaire|solicitud|formulario|richiesta|modulo|aanvra|formulier|pedido|formul[aá]rio/;

/** A call verb before a number written in the text: "call us on 0330 …", "rufen Sie an unter", "appelez le", "llámanos al", "chiama il", "bel dan", "ligue". */
export const CALL_NUMBER = lexeme({
  lower: [
    String.raw`(?:call|phone|ring|telephone|tel\.?|rufen sie (?:\p{L}+ ){0,2}?an|anrufen|telefon|appel(?:ez|er)|téléphon\p{L}*|ll[aá]m\p{L}*|teléfono|chiam(?:a|ate|are)|telefon(?:o|a|ate)|bel(?:t|len)?|ligue|ligar|telefone)(?: \p{L}+){0,5}? \+?\(?\d[\d ()./-]{5,18}\d`,
  ],
});

/** A postal address: a P.O. box, or a write verb with a postcode ("write to …, Leeds LS1 4AP", "schreiben Sie an … 28217 Bremen"). */
export const POSTAL = lexeme({
  lower: [String.raw`p\.? ?o\.? box \d+|postfach \d+|postbus \d+|boîte postale \d+|b\.p\. \d+|apartado(?: de correos)? \d+|casella postale \d+|caixa postal \d+|antwoordnummer \d+`],
});
export const WRITE_TO = lexeme({
  lower: [
    String.raw`write to|writing to|by post|by letter|in writing|send (?:\p{L}+ ){0,3}?to|schreiben sie|schriftlich|richten sie|per post|postalisch|écrivez|par courrier|par écrit|adressez|envoyez|escrib\p{L}*|por escrito|presente su (?:escrito|solicitud|recurso|reclamación)|dirija|por correo postal|scriv\p{L}*|per iscritto|per posta|indirizz(?:i|ate)|inviate|schrijf|schriftelijk|stuur|per brief|escrev\p{L}*|envie|por carta|por correio|pelo correio|enviad[oa] (?:\p{L}+ ){0,2}?para`,
  ],
});
/** Postcodes on the original text: UK ("BA5 1XX"), four or five digits before a capitalised town, Dutch "6600 AD", Portuguese "1000-001". */
export const POSTCODE = /(?<![\p{L}\p{N}])(?:[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}|\d{4,5} (?:[A-Z]{2} )?\p{Lu}\p{Ll}+|\d{4}-\d{3})(?![\p{L}\p{N}])/u;
