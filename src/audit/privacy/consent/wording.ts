// What the banner-structure analysis reads in a consent banner's controls, as data: the words
// of accept, reject/decline, settings and save controls, and the names of cookie categories, in
// English, German, French, Spanish, Italian, Dutch and Portuguese.
//
// Phrases are written folded (lower case, no accents, "&" → "and", "’" → "'", other punctuation
// → space; see `fold`), so "Alle akzeptieren", "ALLE AKZEPTIEREN" and "Tout Accepter" in a page
// all meet their phrase here. A phrase matches on word boundaries anywhere in a control's name,
// and names longer than CONTROL_NAME_MAX are not judged (a paragraph that happens to say
// "accept" is not a button label).

/** Longest control name (folded) that is classified; longer ones are prose, not labels. */
export const CONTROL_NAME_MAX = 60;

const COMBINING = /[\u0300-\u036f]/g;
const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4]/g;
const PUNCTUATION = /[^\p{L}\p{N}' ]+/gu;
const SPACES = /\s+/g;

/** Lower case, accents dropped, `&` → `and`, typographic apostrophes → `'`, other punctuation → space, spaces collapsed. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(COMBINING, '')
    .toLowerCase()
    .replace(APOSTROPHES, "'")
    .replace(/&/g, ' and ')
    .replace(PUNCTUATION, ' ')
    .replace(SPACES, ' ')
    .trim();
}

/** One regex for a list of folded phrases, on word boundaries (`'` and letters continue a word). */
function phrases(list: readonly string[]): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}'])(?:${list.join('|')})(?![\\p{L}\\p{N}])`, 'u');
}

const ALL_EN = '(?: all| everything)?(?: cookies)?';

/**
 * Reject / decline controls, including "only necessary" forms (which reject every non-essential
 * category) and "continue without accepting". Tried before ACCEPT: "Accept only necessary" is
 * a reject control.
 */
export const REJECT_PHRASES: readonly string[] = [
  // en
  `reject${ALL_EN}`, `decline${ALL_EN}`, `deny${ALL_EN}`, `refuse${ALL_EN}`, `disallow${ALL_EN}`, 'disagree',
  "i (?:do not|don't) (?:agree|accept|consent)", "(?:do not|don't) (?:accept|allow|agree|consent)", 'no,? thanks', 'no thank you',
  'continue without (?:accepting|agreeing|consent(?:ing)?|cookies)', 'opt out(?: of (?:all|cookies))?',
  '(?:accept |allow |use |continue with )?(?:only )?(?:strictly )?(?:necessary|essential|required|functional|technical) (?:cookies )?only',
  '(?:accept |allow |use |continue with )?only (?:the )?(?:strictly )?(?:necessary|essential|required|functional|technical)(?: cookies)?',
  '(?:accept|allow|use) (?:strictly )?(?:necessary|essential|required) cookies',
  // de
  '(?:alle |alles )?ablehnen', 'lehne (?:alle |alles )?ab', '(?:alle )?verweigern', 'nicht (?:zustimmen|akzeptieren|einverstanden)',
  'nur (?:technisch |unbedingt )?(?:notwendige|erforderliche|essenzielle|essentielle|funktionale)(?: cookies)?(?: (?:akzeptieren|zulassen|erlauben|verwenden|nutzen))?',
  '(?:ohne|weiter ohne) (?:zustimmung|einwilligung|cookies)(?: fortfahren)?',
  // fr
  '(?:tout )?refuser(?: tout| tous(?: les cookies)?| les cookies)?', 'je refuse', '(?:tout )?rejeter(?: tout)?', "je n'accepte pas",
  'continuer sans accepter', 'non merci',
  "(?:n')?accepter (?:uniquement|seulement) (?:les )?(?:cookies )?(?:strictement )?(?:necessaires|essentiels)",
  '(?:uniquement|seulement) (?:les )?(?:cookies )?(?:strictement )?(?:necessaires|essentiels)', '(?:cookies )?(?:necessaires|essentiels) uniquement',
  // es
  '(?:rechazar|denegar)(?: todo| todas| todos)?(?: las cookies)?', 'no (?:acepto|aceptar)', 'continuar sin aceptar',
  '(?:aceptar |permitir )?(?:solo|solamente|unicamente) (?:las )?(?:cookies )?(?:estrictamente )?(?:necesarias|esenciales|tecnicas)',
  // it
  'rifiut(?:a|o|are)(?: tutt[oi])?(?: i cookie)?', 'nega(?: tutt[oi])?', 'non accetto', 'continua senza accettare',
  '(?:accetta |consenti )?solo (?:i )?(?:cookie )?(?:strettamente )?(?:necessari|essenziali|tecnici)',
  // nl
  '(?:alles? )?weigeren', 'weiger(?: alles?)?', '(?:alles? )?afwijzen', 'wijs (?:alles? )?af', 'niet akkoord',
  '(?:accepteer |sta )?alleen (?:strikt )?(?:noodzakelijke|functionele|essentiele)(?: cookies)?(?: toe)?',
  // pt
  '(?:rejeitar|recusar)(?: tud[oa]| todos| todas)?(?: os cookies)?', 'nao (?:aceito|aceitar|concordo)', 'continuar sem aceitar',
  '(?:aceitar |permitir )?(?:apenas|somente|so) (?:os )?(?:cookies )?(?:estritamente )?(?:necessarios|essenciais)',
];

/** Accept / allow / agree controls (an acknowledgement such as "OK" or "Got it" counts as accept). */
export const ACCEPT_PHRASES: readonly string[] = [
  // en
  `accept${ALL_EN}`, 'accept and (?:close|continue|proceed)', `allow${ALL_EN}`, `enable${ALL_EN}`, 'i agree', 'yes,? i agree',
  'agree(?: to all)?(?: and (?:close|continue|proceed))?', 'i accept', 'got it', 'ok(?:ay)?', 'i consent', 'understood',
  // de
  '(?:alle |alles )?akzeptieren', 'akzeptiere(?:n)?(?: und (?:schliessen|weiter|fortfahren))?', 'alle cookies akzeptieren',
  '(?:allen |allem )?zustimmen', 'ich stimme zu', 'stimme zu', 'einverstanden', '(?:alle |alles )?(?:zulassen|erlauben|annehmen)',
  'verstanden',
  // fr
  "(?:tout )?accepter(?: tout| tous(?: les cookies)?| les cookies)?(?: et (?:fermer|continuer|poursuivre))?", "j'accepte(?: tout)?",
  '(?:tout )?autoriser', "d'accord", "j'ai compris",
  // es
  'aceptar(?: todo| todas| todos)?(?: las cookies)?(?: y (?:cerrar|continuar|seguir))?', 'acepto(?: todo| todas)?',
  '(?:permitir|admitir) (?:todo|todas|todos)', '(?:estoy )?de acuerdo', 'entendido',
  // it
  'accett(?:a|o|are)(?: tutt[oi])?(?: i cookie)?(?: e (?:chiudi|continua))?', 'acconsento', 'consenti(?: tutt[oi])?', 'ho capito', 'va bene',
  // nl
  '(?:alles? )?accepteren', 'accepteer(?: alles?)?(?: cookies)?', '(?:ik ga )?akkoord', '(?:alles? )?toestaan', 'sta (?:alles? )?toe', 'prima',
  // pt
  'aceitar(?: tud[oa]| todos| todas)?(?: os cookies)?(?: e (?:fechar|continuar))?', 'aceito', 'concordo', 'permitir (?:tud[oa]|todos)', 'entendi',
];

/** Controls that open the detailed settings ("second layer"). */
export const SETTINGS_PHRASES: readonly string[] = [
  // en
  '(?:cookie |privacy |consent )?settings', '(?:cookie |privacy |consent )?preferences', 'manage(?: my| your)?(?: cookies| preferences| options| settings| choices| consent| cookie (?:settings|preferences))?',
  'customi[sz]e(?: cookies| settings| choices)?', '(?:more |show )?options', 'let me choose', 'personali[sz]e', 'configure', 'show (?:details|purposes)', 'change (?:settings|preferences)',
  // de
  '(?:cookie )?einstellungen', 'individuelle einstellungen', 'anpassen', 'verwalten', 'mehr optionen', 'details anzeigen', 'praferenzen',
  // fr
  'parametrer(?: les cookies)?', 'parametres', 'personnaliser(?: mes choix)?', 'gerer(?: mes| les)?(?: choix| preferences| cookies| parametres)?', 'preferences', 'plus d options',
  // es
  'configurar(?: cookies)?', 'configuracion(?: de cookies)?', 'personalizar', 'gestionar(?: cookies| preferencias)?', 'preferencias', 'ajustes(?: de cookies)?', 'mas opciones',
  // it
  'impostazioni(?: cookie)?', 'personalizza', 'gestisci(?: preferenze| cookie)?', 'preferenze', 'piu opzioni',
  // nl
  '(?:cookie )?instellingen', 'aanpassen', 'beheren', 'voorkeuren', 'meer opties',
  // pt
  'definicoes(?: de cookies)?', 'configuracoes(?: de cookies)?', 'gerir(?: cookies| preferencias)?', 'gerenciar(?: cookies| preferencias)?', 'preferencias', 'mais opcoes',
];

/** Controls that save a selection made with category controls: neither accept nor reject. */
export const SAVE_PHRASES: readonly string[] = [
  // en
  'save(?: my| your)?(?: preferences| settings| choices| selection| and (?:close|exit))?', 'confirm(?: my| your)? (?:choices|selection|preferences)',
  '(?:accept|allow|agree to) (?:the |my )?(?:selected|selection|current selection)(?: cookies)?', 'apply',
  // de
  '(?:auswahl|einstellungen) (?:speichern|bestatigen|erlauben|akzeptieren|zulassen|ubernehmen)', 'speichern', 'auswahl erlauben',
  // fr
  'enregistrer(?: mes choix| les parametres| mes preferences)?', 'valider(?: mes choix| la selection)?', 'confirmer (?:mes choix|la selection)', 'accepter (?:la|ma) selection',
  // es
  'guardar(?: preferencias| configuracion| cambios)?', 'aceptar (?:la )?seleccion', 'confirmar (?:mis )?(?:preferencias|seleccion)',
  // it
  'salva(?: preferenze| impostazioni| le mie scelte)?', 'accetta (?:la )?selezione', 'conferma(?: le mie scelte)?',
  // nl
  '(?:voorkeuren |selectie )?opslaan', 'selectie (?:toestaan|accepteren)',
  // pt
  'salvar(?: preferencias)?', 'aceitar (?:a )?selecao', 'confirmar (?:as )?(?:escolhas|preferencias)',
];

export const REJECT = phrases(REJECT_PHRASES);
export const ACCEPT = phrases(ACCEPT_PHRASES);
export const SETTINGS = phrases(SETTINGS_PHRASES);
export const SAVE = phrases(SAVE_PHRASES);

/** Names of non-essential cookie categories, as category controls are labelled. */
export const CATEGORY_PHRASES: readonly string[] = [
  // en
  'analytics?', 'analytical', 'statistics?', 'statistical', 'performance', 'measurement', 'audience measurement', 'marketing', 'advertising',
  'advertisements?', 'ads', 'targeting', 'personali[sz](?:ed|ation)', 'preferences?', 'functional(?:ity)?', 'social media', 'tracking', 'third party',
  // de
  'statistik(?:en)?', 'analyse', 'analytische?', 'werbung', 'praferenz(?:en)?', 'funktionale?', 'komfort', 'personalisierung', 'externe medien',
  // fr
  'statistiques?', "mesure d'audience", 'analytiques?', 'publicite', 'publicitaires?', 'fonctionnel(?:s|le|les)?', 'personnalisation', 'reseaux sociaux',
  // es
  'estadisticas?', 'analiticas?', 'publicidad', 'publicitarias?', 'preferencias', 'funcionales', 'personalizacion', 'redes sociales', 'rendimiento',
  // it
  'statistic[hi]e?', 'analitic[hi]e?', 'pubblicita', 'pubblicitari', 'preferenze', 'funzionali', 'personalizzazione', 'profilazione',
  // nl
  'statistieken', 'statistische', 'analytisch(?:e)?', 'advertenties', 'voorkeuren', 'functione(?:el|le)', 'personalisatie', 'sociale media',
  // pt
  'estatisticas?', 'analitic[oa]s?', 'publicidade', 'publicitari[oa]s?', 'preferencias', 'funcionais', 'personalizacao', 'desempenho',
];

/** Categories every banner may lock on: a control for these alone is not a choice. */
export const NECESSARY_PHRASES: readonly string[] = [
  '(?:strictly )?necessary', 'essential', 'required', 'notwendige?', 'erforderliche?', 'essenziell(?:e)?', 'necessaires', 'essentiels',
  'necesarias', 'esenciales', 'necessari', 'tecnici', 'noodzakelijke?', 'necessarios', 'essenciais',
];

export const CATEGORY = phrases(CATEGORY_PHRASES);
export const NECESSARY = phrases(NECESSARY_PHRASES);

/** Words that make a dialog, region or aside a consent notice (folded). */
export const CONSENT_WORDS = phrases([
  'cookies?', 'consent', 'consentement', 'einwilligung', 'zustimmung', 'consentimiento', 'consenso', 'toestemming', 'consentimento', 'temoins',
  'galletas', 'tracking', 'gdpr', 'rgpd', 'dsgvo',
]);

/**
 * id / class / aria-label / data-* values that name a consent container: `cookie-banner`,
 * `CookieConsent`, `gdpr-notice`, `cc-window`, `privacy-banner`, `cmp-container`. Raw
 * (unfolded) attribute text, case-insensitive.
 */
export const CONTAINER_NAME = /cookie|consent|gdpr|rgpd|dsgvo|lgpd|(?:^|[^a-z])cmp(?:$|[^a-z])|(?:^|[\s_-])cc[-_](?:window|banner|dialog)|privacy[-_\s]?(?:banner|notice|bar|popup|pop-up|modal|prompt|overlay|dialog)|datenschutz[-_]?(?:banner|hinweis)|tarteaucitron|klaro|iubenda|borlabs/i;

export type ControlRole = 'accept' | 'reject' | 'both' | 'settings' | 'save';

/**
 * The role of a control from its name: `both` when one name says accept and reject ("Accept /
 * Reject"); undefined when it says none of them, or is too long to be a label.
 */
export function controlRole(name: string): ControlRole | undefined {
  const folded = fold(name);
  if (folded === '' || folded.length > CONTROL_NAME_MAX) return undefined;
  if (SAVE.test(folded)) return 'save';
  const reject = REJECT.exec(folded);
  if (reject !== null) {
    const rest = `${folded.slice(0, reject.index)} | ${folded.slice(reject.index + reject[0].length)}`;
    return ACCEPT.test(rest) ? 'both' : 'reject';
  }
  if (ACCEPT.test(folded)) return 'accept';
  if (SETTINGS.test(folded)) return 'settings';
  return undefined;
}

/** The non-essential category a control's label names (folded match), or undefined. */
export function categoryOf(label: string): string | undefined {
  const folded = fold(label.replace(/[_-]+/g, ' '));
  if (folded === '') return undefined;
  return CATEGORY.exec(folded)?.[0];
}

/** Whether a label names only the necessary / essential category. */
export function isNecessaryLabel(label: string): boolean {
  return NECESSARY.test(fold(label.replace(/[_-]+/g, ' ')));
}

/** Examples for "looked for" evidence. */
export const EXAMPLES = {
  accept: ['Accept all', 'Alle akzeptieren', 'Tout accepter', 'Aceptar'],
  reject: ['Reject all', 'Only necessary', 'Alle ablehnen', 'Tout refuser', 'Rechazar'],
  categories: ['Statistics', 'Marketing', 'Preferences'],
} as const;
