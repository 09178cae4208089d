// What the link controls look for, as data. Phrases are written naturally and folded at load
// (text.ts: lower case, no accents, "&" → "and", punctuation → space), so "Datenschutzerklärung"
// here matches "DATENSCHUTZERKLÄRUNG", "Datenschutzerklarung" and "datenschutz­erklärung" in a page.
// Sources: the IANA `privacy-policy` link relation (RFC 6903 §4), Cal. Civ. Code §1798.135 and
// 11 CCR §§7013–7015 (opt-out link wordings and icon), and the link texts of
// ../shared/reference/cmp-static-signatures.json (`privacy_policy_link`, `ccpa_cpra_links`).
import { escapeRegex, fold, wordsRegex } from './text.ts';

/** The IANA link relation that names a privacy policy (RFC 6903 §4). */
export const PRIVACY_POLICY_REL = 'privacy-policy';

/**
 * Names of a privacy policy or notice, per language. A link whose whole name is one of these is
 * "exact wording". Cookie-only policies are deliberately absent: a "Cookie Policy" is not a
 * privacy policy (issue 3). Compounds that name both ("Privacy & Cookie Policy") are here.
 */
export const POLICY_NAMES: Readonly<Record<string, readonly string[]>> = {
  en: [
    ...['', 'our ', 'the ', 'this ', 'website ', 'site ', 'online ', 'global ', 'new ', 'customer ', 'consumer ', 'web ', 'data '].flatMap((prefix) =>
      ['privacy policy', 'privacy policies', 'privacy notice', 'privacy notices', 'privacy statement'].map((name) => `${prefix}${name}`),
    ),
    'privacy information',
    'privacy info',
    'privacy and cookie policy',
    'privacy and cookies policy',
    'privacy and cookie notice',
    'privacy and cookie statement',
    'privacy and cookies',
    'privacy cookies',
    'privacy policy and cookies',
    'privacy policy and cookie policy',
    'privacy policy and cookie statement',
    'privacy notice and cookies',
    'privacy and terms',
    'terms and privacy',
    'privacy and legal',
    'legal and privacy',
    'data protection policy',
    'data protection notice',
    'data protection statement',
    'data protection information',
    'data protection declaration',
    'personal data protection policy',
    'privacy and data protection',
    'data protection and privacy',
  ],
  de: [
    'Datenschutzerklärung',
    'Datenschutzerklaerung',
    'Datenschutz-Erklärung',
    'Datenschutzhinweise',
    'Datenschutzhinweis',
    'Datenschutzrichtlinie',
    'Datenschutzrichtlinien',
    'Datenschutzbestimmungen',
    'Datenschutzinformationen',
    'Datenschutzinformation',
    'Datenschutzerklärung und Cookies',
    'Datenschutz und Cookies',
    'Hinweise zum Datenschutz',
    'Informationen zum Datenschutz',
    'Erklärung zum Datenschutz',
  ],
  fr: [
    'Politique de confidentialité',
    'Politique de confidentialité et cookies',
    'Politique de protection des données',
    'Politique de protection des données personnelles',
    'Politique relative à la protection des données',
    'Politique de vie privée',
    'Politique de respect de la vie privée',
    'Charte de confidentialité',
    'Charte de protection des données personnelles',
    'Charte des données personnelles',
    'Déclaration de confidentialité',
    'Avis de confidentialité',
    'Protection des données personnelles',
    'Confidentialité et cookies',
    'Vie privée et cookies',
  ],
  es: [
    'Política de privacidad',
    'Política de privacidad y cookies',
    'Aviso de privacidad',
    'Aviso de privacidad integral',
    'Aviso de privacidad simplificado',
    'Declaración de privacidad',
    'Política de protección de datos',
    'Protección de datos personales',
    'Privacidad y cookies',
  ],
  it: [
    'Informativa sulla privacy',
    'Informativa privacy',
    'Informativa per la privacy',
    'Informativa sul trattamento dei dati personali',
    'Informativa trattamento dati',
    'Informativa sulla protezione dei dati',
    'Informativa privacy e cookie',
    'Politica sulla privacy',
    'Politica della privacy',
    'Politica di privacy',
    'Privacy e cookie',
    'Privacy e cookie policy',
  ],
  nl: ['Privacybeleid', 'Privacyverklaring', 'Privacyreglement', 'Privacy- en cookiebeleid', 'Privacy en cookies', 'Privacy- en cookieverklaring'],
  pt: [
    'Política de privacidade',
    'Política de privacidade e cookies',
    'Aviso de privacidade',
    'Declaração de privacidade',
    'Política de proteção de dados',
    'Proteção de dados pessoais',
    'Privacidade e cookies',
  ],
  pl: ['Polityka prywatności'],
  sv: ['Integritetspolicy', 'Integritetsmeddelande'],
  da: ['Privatlivspolitik', 'Persondatapolitik'],
  fi: ['Tietosuojaseloste', 'Tietosuojakäytäntö'],
  cs: ['Zásady ochrany osobních údajů'],
  ja: ['プライバシーポリシー', '個人情報保護方針'],
  zh: ['隐私政策', '隱私權政策', '隐私声明'],
  ko: ['개인정보처리방침', '개인정보 처리방침'],
  ru: ['Политика конфиденциальности'],
};

/**
 * One-word (or generic) names that, as a link's whole name, point to a privacy page: the usual
 * footer "Privacy" / "Datenschutz". Weaker than a full name: in a sentence they mean nothing.
 */
export const SHORT_POLICY_NAMES: readonly string[] = [
  'Privacy',
  'Data protection',
  'Datenschutz',
  'Confidentialité',
  'Vie privée',
  'Données personnelles',
  'Protection des données',
  'Privacidad',
  'Protección de datos',
  'Privacidade',
  'Proteção de dados',
  'Dataskydd',
  'Ochrana osobních údajů',
];

/** Policy names as URL path words (matched on a folded path segment, so `privacy_policy`, `PrivacyPolicy.aspx`, `privacy-policy-a6184181`). */
export const POLICY_SLUGS: readonly string[] = [
  'privacy ?(?:policy|policies|notice|statement|info|information|beleid|verklaring|reglement)',
  'privacy and cookies? (?:policy|notice|statement)',
  'datenschutz ?(?:erklarung|erklaerung|hinweise?|richtlinien?|bestimmungen|informationen?)',
  'politique de confidentialite',
  'politica de privacidade?',
  'politicadeprivacidade?',
  'aviso de privacidade?',
  'informativa (?:sulla )?privacy',
  'data ?protection',
  'protection des donnees',
  'donnees personnelles',
  'proteccion de datos',
  'protecao de dados',
  'polityka prywatnosci',
  'integritetspolicy',
  'privatlivspolitik',
  'tietosuojaseloste',
];

/** A path segment that is, on its own, a privacy page: `/privacy`, `/datenschutz.html`, `/privacidad/`. */
export const SHORT_POLICY_SLUGS: readonly string[] = ['privacy', 'datenschutz', 'confidentialite', 'privacidad', 'privacidade', 'privacite', 'vie privee'];

/**
 * Path segments of news, blog, press, topic and product sections. A link into one of them is a
 * story or a feature page about privacy ("Our new privacy features" → /news/2024/privacy-update,
 * nav "Privacy" → /features/privacy), not the policy, unless its name is exactly a full policy
 * name. A year (`/2024/`) or date segment counts the same.
 */
export const SECTION_SEGMENTS: readonly string[] = [
  'news', 'blog', 'blogs', 'press', 'presse', 'pressroom', 'press room', 'press release', 'press releases', 'pressreleases',
  'newsroom', 'article', 'articles', 'story', 'stories', 'topic', 'topics', 'tag', 'tags', 'category', 'categories', 'series',
  'actualites', 'actualite', 'communiques', 'noticias', 'noticia', 'comunicados', 'nieuws', 'notizie', 'aktuelles', 'nachrichten',
  'features', 'feature', 'product', 'products', 'solutions', 'solution', 'use cases', 'pricing', 'account', 'accounts',
];
const DATE_SEGMENT = '(?:19|20)\\d\\d(?: \\d\\d?){0,2}';

/** A cookie word anywhere in a folded name: such a name with only a policy URL is a cookie page (`"Cookies"` → /privacy/cookies). */
export const COOKIE_WORD = /(?:^| )cookies?(?= |$)|(?:^| )cookie(?:beleid|verklaring|richtlinien?|hinweise?|policy|settings)(?= |$)/u;

/**
 * A link named as a cookie policy or cookie/consent settings, and nothing more: "Cookie Policy",
 * "Cookies", "Cookie settings", "Consent preferences", "Politique de cookies". Not a privacy
 * policy (issue 3); reported as the near-miss when the page has nothing better.
 */
export const COOKIE_LINK_NAME =
  /^(?:(?:our|the|use of|about|manage|managing|about our) )?(?:cookies?|cookie(?:beleid|verklaring|richtlinien?|hinweise?))(?: (?:policy|policies|notice|statement|settings|preferences|information|info|declaration|richtlinie|hinweise|einstellungen|consent))?$|^(?:politique|politica|informativa|gestion|gestione|declaration) (?:de |des |sui |sulla |dei |relative aux )?(?:cookies?|cookie policy)$|^(?:consent|privacy) (?:preferences|settings)$|^manage consent$/u;

/** Path segments that may follow the policy segment without changing the page: `/privacy/en/`, `/privacy/policy.html`, `/datenschutz/index.php`. */
export const NEUTRAL_SEGMENT = /^(?:[a-z]{2}(?: [a-z]{2})?|index|default|home|main|full|policy|policies|notice|statement|page|view|show)$/u;

/**
 * Opt-out wordings (folded), matched anywhere in a control's name on whole words. The statute's
 * titles, their legacy forms and close variants: "Do Not Sell or Share My Personal Information",
 * "Do Not Sell My Info", "Do not sell/share my personal data", "Limit the Use of My Sensitive
 * Personal Information", "Your (California) Privacy Choices", "Opt out of sale/sharing", the
 * CPPA icon's alt text, and the Spanish forms California businesses publish.
 */
export const OPT_OUT_PHRASES: readonly string[] = [
  '(?:do not|dont) (?:sell|share)(?: (?:or |and |and or )?(?:share|sell))?(?: my| our)?(?: personal)? (?:information|info|data)',
  'limit (?:the )?use of my sensitive personal (?:information|info|data)',
  'your (?:california )?privacy choices',
  'california privacy choices',
  'opt(?: out|out) of (?:the )?(?:sale|selling|sharing)(?: (?:or |and |and or )?(?:sale|selling|sharing))?',
  '(?:ccpa|cpra|california consumer privacy act(?: ccpa)?) opt ?out(?: icon)?',
  'privacy options icon',
  'no (?:vender|vendan|venda|compartir)(?: (?:ni|o) (?:compartir|vender))? mi informacion personal',
  '(?:tus|sus) opciones de privacidad',
];

/** Wordings that count only as a control's whole name (too short to trust inside other text). */
export const OPT_OUT_WHOLE_NAMES: readonly string[] = ['do not sell', 'do not sell or share', 'dont sell', 'privacy choices'];

/** Examples for "looked for" evidence. */
export const OPT_OUT_EXAMPLES: readonly string[] = [
  'Do Not Sell or Share My Personal Information',
  'Your Privacy Choices',
  'Limit the Use of My Sensitive Personal Information',
  'Opt out of sale/sharing',
];
export const POLICY_EXAMPLES: readonly string[] = [
  'rel=privacy-policy',
  'Privacy Policy',
  'Privacy Notice',
  'Datenschutz',
  'Politique de confidentialité',
  'Política de privacidad',
  'Informativa sulla privacy',
  'Privacyverklaring',
  'Política de privacidade',
  'href /privacy',
];

// Compiled forms.
const fullNames = new Set(Object.values(POLICY_NAMES).flat().map(fold));
const shortNames = new Set(SHORT_POLICY_NAMES.map(fold));
/** Whether a folded name is exactly a full policy name. */
export const isFullPolicyName = (folded: string): boolean => fullNames.has(folded);
/** Whether a folded name is exactly a short policy name ("privacy", "datenschutz"). */
export const isShortPolicyName = (folded: string): boolean => shortNames.has(folded);
/** A full policy name anywhere in a folded text, on whole words. */
export const FULL_NAME_IN_TEXT = wordsRegex([...fullNames].sort((a, b) => b.length - a.length).map(escapeRegex));
export const POLICY_SLUG = wordsRegex(POLICY_SLUGS);
export const SHORT_POLICY_SLUG = new RegExp(`^(?:${SHORT_POLICY_SLUGS.join('|')})$`, 'u');
export const SECTION_SEGMENT = new RegExp(`^(?:${SECTION_SEGMENTS.map(escapeRegex).join('|')}|${DATE_SEGMENT})$`, 'u');
export const OPT_OUT_IN_NAME = wordsRegex(OPT_OUT_PHRASES);
const optOutWhole = new Set(OPT_OUT_WHOLE_NAMES);
export const isOptOutWholeName = (folded: string): boolean => optOutWhole.has(folded);
