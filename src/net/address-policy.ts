// Which network destinations the service may talk to, and the request-time URL check.
//
// ipaddr.js is the IP parser (tested, handles every IPv6 spelling); the range policy is ours and
// lives in the two tables below so that it can be reviewed row by row against the IANA registries:
//   https://www.iana.org/assignments/iana-ipv4-special-registry/
//   https://www.iana.org/assignments/iana-ipv6-special-registry/
// Every registry row is blocked, including the few marked "globally reachable" (AS112, AMT, PCP/TURN
// anycast): none of them serves web pages, and a shorter "maybe" list is harder to audit than "all".

import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;
type IP = IPv4 | IPv6;

export interface Cidr {
  /** The entry as the operator wrote it (trimmed), for messages. */
  readonly text: string;
  readonly range: [IP, number];
}

interface SpecialRange {
  readonly cidr: string;
  readonly name: string;
}

// IANA IPv4 Special-Purpose Address Registry, plus multicast (which has its own registry).
const IPV4_SPECIAL: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', name: '"this network" (RFC 791)' }, // includes 0.0.0.0, which Linux dials as localhost
  { cidr: '10.0.0.0/8', name: 'private-use (RFC 1918)' },
  { cidr: '100.64.0.0/10', name: 'shared address space / CGNAT (RFC 6598)' },
  { cidr: '127.0.0.0/8', name: 'loopback (RFC 1122)' },
  { cidr: '169.254.0.0/16', name: 'link-local (RFC 3927)' }, // cloud metadata endpoints live here
  { cidr: '172.16.0.0/12', name: 'private-use (RFC 1918)' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments (RFC 6890)' }, // DS-Lite, NAT64 discovery, PCP/TURN anycast
  { cidr: '192.0.2.0/24', name: 'documentation TEST-NET-1 (RFC 5737)' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4 (RFC 7535)' },
  { cidr: '192.52.193.0/24', name: 'AMT (RFC 7450)' },
  { cidr: '192.88.99.0/24', name: 'deprecated 6to4 relay anycast (RFC 7526)' },
  { cidr: '192.168.0.0/16', name: 'private-use (RFC 1918)' },
  { cidr: '192.175.48.0/24', name: 'direct delegation AS112 (RFC 7534)' },
  { cidr: '198.18.0.0/15', name: 'benchmarking (RFC 2544)' },
  { cidr: '198.51.100.0/24', name: 'documentation TEST-NET-2 (RFC 5737)' },
  { cidr: '203.0.113.0/24', name: 'documentation TEST-NET-3 (RFC 5737)' },
  { cidr: '224.0.0.0/4', name: 'multicast (RFC 5771)' },
  { cidr: '240.0.0.0/4', name: 'reserved (RFC 1112)' },
  { cidr: '255.255.255.255/32', name: 'limited broadcast (RFC 919)' }, // inside 240/4; kept for a precise message
];

// IANA IPv6 Special-Purpose Address Registry plus the non-registry blocks worth naming. Anything
// outside 2000::/3 is refused anyway (see isPublicV6); the rows there only make messages precise.
const IPV6_SPECIAL: readonly SpecialRange[] = [
  { cidr: '::/128', name: 'unspecified (RFC 4291)' },
  { cidr: '::1/128', name: 'loopback (RFC 4291)' },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped (RFC 4291)' }, // normally unmapped before we get here
  { cidr: '::/96', name: 'IPv4-compatible, deprecated (RFC 4291)' },
  { cidr: '64:ff9b::/96', name: 'IPv4/IPv6 translation, NAT64 (RFC 6052)' },
  { cidr: '64:ff9b:1::/48', name: 'local-use IPv4/IPv6 translation (RFC 8215)' },
  { cidr: '100::/64', name: 'discard-only (RFC 6666)' },
  { cidr: '100:0:0:1::/64', name: 'dummy IPv6 prefix (RFC 9780)' },
  // The whole IETF block, so Teredo (2001::/32, whose embedded client IPv4 is XOR-obfuscated),
  // ORCHID, benchmarking and the anycast service addresses need no rows of their own.
  { cidr: '2001::/32', name: 'Teredo (RFC 4380)' },
  { cidr: '2001::/23', name: 'IETF protocol assignments (RFC 2928)' },
  { cidr: '2001:db8::/32', name: 'documentation (RFC 3849)' },
  { cidr: '2002::/16', name: '6to4 (RFC 3056)' },
  { cidr: '2620:4f:8000::/48', name: 'direct delegation AS112 (RFC 7534)' },
  { cidr: '3fff::/20', name: 'documentation (RFC 9637)' },
  { cidr: '5f00::/16', name: 'segment routing SIDs (RFC 9602)' },
  { cidr: 'fc00::/7', name: 'unique-local (RFC 4193)' },
  { cidr: 'fe80::/10', name: 'link-local (RFC 4291)' },
  { cidr: 'fec0::/10', name: 'site-local, deprecated (RFC 3879)' },
  { cidr: 'ff00::/8', name: 'multicast (RFC 4291)' },
];

interface ParsedSpecial {
  readonly range: [IP, number];
  readonly cidr: string;
  readonly name: string;
}

const parseTable = (rows: readonly SpecialRange[]): ParsedSpecial[] =>
  rows.map((r) => ({ range: ipaddr.parseCIDR(r.cidr), cidr: r.cidr, name: r.name }));

const V4_TABLE = parseTable(IPV4_SPECIAL);
const V6_TABLE = parseTable(IPV6_SPECIAL);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Strict IP parser for strings from DNS answers, URL hosts (already canonical) and operator
 * configuration. Unlike ipaddr.parse it refuses the legacy IPv4 spellings (0177.1, 0x7f.1, 2130706433):
 * a config value that means something surprising should fail loudly instead.
 */
export function parseIp(text: string): IP | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes(':') || !ipaddr.IPv6.isValid(text)) return null;
  const withoutZone = text.split('%', 1)[0] ?? '';
  const tail = withoutZone.slice(withoutZone.lastIndexOf(':') + 1);
  if (tail.includes('.') && !ipaddr.IPv4.isValidFourPartDecimal(tail)) return null;
  return ipaddr.IPv6.parse(text);
}

const COMPAT_V6 = ipaddr.parseCIDR('::/96');
const NAT64_V6 = ipaddr.parseCIDR('64:ff9b::/96');
const NAT64_LOCAL_V6 = ipaddr.parseCIDR('64:ff9b:1::/48');
const SIX_TO_FOUR_V6 = ipaddr.parseCIDR('2002::/16');
const TEREDO_V6 = ipaddr.parseCIDR('2001::/32');

/** The IPv4 addresses an IPv6 address carries inside it, per the transition mechanism of its prefix. */
function embeddedV4(addr: IPv6): IPv4[] {
  const b = addr.toByteArray();
  const v4 = (o: number) => new ipaddr.IPv4([b[o] ?? 0, b[o + 1] ?? 0, b[o + 2] ?? 0, b[o + 3] ?? 0]);
  const out: IPv4[] = [];
  // IPv4-compatible (::a.b.c.d); :: and ::1 are excluded by RFC 4291 and judged on their own.
  if (addr.match(COMPAT_V6) && (b[12] ?? 0) !== 0) out.push(v4(12));
  if (addr.match(NAT64_V6)) out.push(v4(12));
  if (addr.match(NAT64_LOCAL_V6)) {
    // RFC 8215 lets the operator pick any RFC 6052 prefix length; judge the two common layouts.
    out.push(v4(12));
    out.push(new ipaddr.IPv4([b[6] ?? 0, b[7] ?? 0, b[9] ?? 0, b[10] ?? 0]));
  }
  if (addr.match(SIX_TO_FOUR_V6)) out.push(v4(2));
  if (addr.match(TEREDO_V6)) {
    out.push(v4(4)); // Teredo server
    out.push(new ipaddr.IPv4([0, 1, 2, 3].map((i) => (b[12 + i] ?? 0) ^ 0xff))); // client, obfuscated
  }
  return out;
}

function findSpecial(addr: IP): ParsedSpecial | undefined {
  const table = addr.kind() === 'ipv4' ? V4_TABLE : V6_TABLE;
  return table.find((row) => row.range[0].kind() === addr.kind() && addr.match(row.range));
}

export interface AddressPolicy {
  /** The operator allow-list this policy was built with. */
  readonly allow: readonly Cidr[];
  /** True when a connection to this address is permitted (public, or exempted by the allow-list). */
  isPublicOrAllowed(ip: string): boolean;
  /** A short explanation for logs and error details, e.g. `127.0.0.1 is loopback (RFC 1122) 127.0.0.0/8`. */
  describe(ip: string): string;
}

interface Verdict {
  ok: boolean;
  why: string;
}

export function createAddressPolicy(allow: readonly Cidr[]): AddressPolicy {
  const allowedBy = (addr: IP): Cidr | undefined =>
    allow.find((c) => c.range[0].kind() === addr.kind() && addr.match(c.range));

  const judge = (input: IP): Verdict => {
    // An IPv4-mapped address *is* the IPv4 address as far as the kernel is concerned.
    const addr = input.kind() === 'ipv6' && (input as IPv6).isIPv4MappedAddress() ? (input as IPv6).toIPv4Address() : input;
    const text = addr.toString();
    const special = findSpecial(addr);
    const exempt = allowedBy(addr);
    let self: Verdict;
    if (exempt) {
      self = { ok: true, why: `${text} is allowed by AUDIT_ALLOW_PRIVATE_NETWORKS entry ${exempt.text}` };
    } else if (special) {
      self = { ok: false, why: `${text} is ${special.name} ${special.cidr}` };
    } else if (addr.kind() === 'ipv6' && !addr.match(GLOBAL_UNICAST_V6)) {
      self = { ok: false, why: `${text} is outside global unicast 2000::/3` };
    } else {
      self = { ok: true, why: `${text} is public` };
    }
    if (!self.ok || addr.kind() === 'ipv4') return self;
    // Exempted or not, a v6 wrapper must not become a tunnel to a v4 address that is itself refused.
    for (const inner of embeddedV4(addr as IPv6)) {
      const v = judge(inner);
      if (!v.ok) return { ok: false, why: `${text} embeds ${v.why}` };
    }
    return self;
  };

  const judgeText = (ip: string): Verdict => {
    const addr = parseIp(ip);
    return addr ? judge(addr) : { ok: false, why: `${JSON.stringify(ip)} is not an IP address` };
  };

  return {
    allow,
    isPublicOrAllowed: (ip) => judgeText(ip).ok,
    describe: (ip) => judgeText(ip).why,
  };
}

/**
 * Parses `AUDIT_ALLOW_PRIVATE_NETWORKS`: comma-separated CIDRs (v4 or v6); a bare address means /32
 * or /128. Throws naming the bad entry, so a typo stops the service at start instead of silently
 * leaving intranet audits broken (or, worse, wider open than intended).
 */
export function parseCidrList(value: string): Cidr[] {
  const out: Cidr[] = [];
  for (const raw of value.split(',')) {
    const text = raw.trim();
    if (text === '') continue;
    const slash = text.indexOf('/');
    const addrText = slash === -1 ? text : text.slice(0, slash);
    const bitsText = slash === -1 ? undefined : text.slice(slash + 1);
    const addr = addrText.includes('%') ? null : parseIp(addrText);
    if (!addr) throw new Error(`${JSON.stringify(text)} is not an IPv4 or IPv6 CIDR`);
    const max = addr.kind() === 'ipv4' ? 32 : 128;
    const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
    if (!Number.isInteger(bits) || bits < 0 || bits > max) {
      throw new Error(`${JSON.stringify(text)} has an invalid prefix length (0-${max})`);
    }
    if (addr.kind() === 'ipv6' && (addr as IPv6).isIPv4MappedAddress() && bits >= 96) {
      // Mapped addresses are judged as IPv4, so this entry would never match anything.
      throw new Error(`${JSON.stringify(text)} is IPv4-mapped; write the IPv4 CIDR instead`);
    }
    out.push({ text, range: [addr, bits] });
  }
  return out;
}

/** Lower-case, IDNA-normalised host name as `URL#hostname` would produce it (no brackets for IPv6). */
function normaliseHostName(host: string): string | null {
  try {
    const h = new URL(`https://${host}/`).hostname;
    return h.endsWith('.') ? h.slice(0, -1) : h;
  } catch {
    return null;
  }
}

/**
 * Parses `AUDIT_RESOLVE` (`host=ip,host=ip`, curl `--resolve` style without ports, IPv6 unbracketed).
 * A host named twice maps to all its addresses. Addresses are only parsed here; the address policy
 * is applied at request time like for any DNS answer.
 */
export function parseStaticResolve(value: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const hostText = eq === -1 ? '' : entry.slice(0, eq).trim();
    const ipText = eq === -1 ? '' : entry.slice(eq + 1).trim();
    const host = hostText === '' || /[\s/@:[\]]/.test(hostText) ? null : normaliseHostName(hostText);
    if (!host || parseIp(host.replace(/^\[|\]$/g, '')) !== null) {
      throw new Error(`${JSON.stringify(entry)} must be host=ip with a host name on the left`);
    }
    const ip = parseIp(ipText);
    if (!ip || ipText.includes('%')) {
      throw new Error(`${JSON.stringify(entry)} must be host=ip with a dotted IPv4 or an unbracketed IPv6 on the right`);
    }
    const list = out.get(host) ?? [];
    const canonical = ip.toString();
    if (!list.includes(canonical)) list.push(canonical);
    out.set(host, list);
  }
  return out;
}

export const MAX_URL_LENGTH = 2048;

export type UrlCheck =
  | { ok: true; url: URL }
  | { ok: false; reason: 'bad-url' | 'blocked-address'; message: string };

const NAME_MESSAGE = 'Local or internal host names (localhost, *.local, *.internal, names without a dot) cannot be audited.';

/**
 * Why a host *name* is refused regardless of what it resolves to, or null. These names are local by
 * definition (RFC 6761/6762/8375, ICANN's .internal), so the allow-list never exempts them: intranet
 * audits use real FQDNs mapped via AUDIT_RESOLVE or internal DNS.
 */
export function blockedHostName(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (name === '' || !name.includes('.')) return NAME_MESSAGE;
  const labels = name.split('.');
  const tld = labels[labels.length - 1];
  if (tld === 'localhost' || tld === 'local' || tld === 'internal') return NAME_MESSAGE;
  if (name === 'home.arpa' || name.endsWith('.home.arpa')) return NAME_MESSAGE;
  return null;
}

/** The bare IP of an IP-literal URL host (`[::1]` → `::1`), or null for a domain name. */
export function ipLiteralOf(hostname: string): string | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  // WHATWG URL turns every numeric IPv4 spelling into dotted decimal, so this is the only form left.
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? hostname : null;
}

/**
 * Validates an already parsed URL: used on the request URL and on every redirect target, so the same
 * object that was judged is the one that is fetched.
 */
export function checkParsedUrl(url: URL, policy: AddressPolicy): UrlCheck {
  if (url.protocol !== 'https:') return { ok: false, reason: 'bad-url', message: 'Only https:// URLs can be audited.' };
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'bad-url', message: 'URLs with a user name or password are not accepted.' };
  }
  if (url.href.length > MAX_URL_LENGTH) {
    return { ok: false, reason: 'bad-url', message: `The URL is longer than ${MAX_URL_LENGTH} characters.` };
  }
  const ip = ipLiteralOf(url.hostname);
  if (ip !== null) {
    if (!policy.isPublicOrAllowed(ip)) {
      return { ok: false, reason: 'blocked-address', message: 'The URL points to an address that is not publicly reachable.' };
    }
    return { ok: true, url };
  }
  const nameProblem = blockedHostName(url.hostname);
  if (nameProblem) return { ok: false, reason: 'blocked-address', message: nameProblem };
  return { ok: true, url };
}

/**
 * The request-time URL check: pure and DNS-free, so the HTTP layer can answer 400 before any network
 * work. On success the returned `url` is the object to hand to the fetcher.
 */
export function checkTargetUrl(raw: string, policy: AddressPolicy): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) {
    return { ok: false, reason: 'bad-url', message: `The URL is longer than ${MAX_URL_LENGTH} characters.` };
  }
  // The WHATWG parser silently deletes tabs and newlines anywhere; a URL that only makes sense after
  // that repair was crafted, not typed, so refuse it instead of guessing.
  if (/[\u0000-\u001f\u007f]/.test(raw)) {
    return { ok: false, reason: 'bad-url', message: 'The URL contains control characters such as tabs or line breaks.' };
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'bad-url', message: 'Enter an absolute https:// URL.' };
  }
  return checkParsedUrl(url, policy);
}
