// Reading cookie names out of Set-Cookie headers and out of inline scripts' `document.cookie`
// writes. Only the name and the Domain attribute matter here: they are what the cookie
// catalogue classifies.

export interface ParsedCookie {
  name: string;
  /** The Domain attribute, lower-cased, without a leading dot; undefined when absent. */
  domain?: string;
  /** The header deletes the cookie (`Max-Age` ≤ 0, or `Expires` in the past) rather than setting it. */
  deletes: boolean;
}

/** A comma that starts a new cookie (`, name=`) rather than sitting inside `Expires=Wed, 21 Oct …`. */
const NEXT_COOKIE = /,(?=\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+=)/g;
const EXPIRES_TAIL = /;\s*expires\s*=\s*[A-Za-z]{3,9}$/i;

/**
 * A deletion: `Max-Age=0` (or negative), or an `Expires` date before 2000 (sites delete with
 * `Thu, 01 Jan 1970 00:00:00 GMT`; nobody sets a tracking cookie that expired last century).
 */
const DELETES = /(?:^|;)\s*(?:max-age\s*=\s*(?:-\d+|0+)\s*(?:;|$)|expires\s*=\s*[a-z]{3},?\s*\d{1,2}[\s-][a-z]{3}[\s-](?:19\d\d|70))/i;

/** Upper bound on cookies read from one header value. */
const MAX_COOKIES_PER_HEADER = 50;

/**
 * The cookies of one Set-Cookie header value (RFC 6265bis §5.6): the name is what precedes the
 * first `=` of the first `;`-separated part, trimmed; a part without `=` has an empty name and
 * is skipped. A value that several headers were folded into (`a=1, b=2`) is split at commas
 * that start a new `name=`, never at the comma of an `Expires` date.
 */
export function parseSetCookie(header: string): ParsedCookie[] {
  const out: ParsedCookie[] = [];
  for (const part of splitFolded(header)) {
    if (out.length >= MAX_COOKIES_PER_HEADER) break;
    const semicolon = part.indexOf(';');
    const pair = semicolon === -1 ? part : part.slice(0, semicolon);
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    const name = pair.slice(0, equals).trim();
    if (name === '') continue;
    const attributes = semicolon === -1 ? '' : part.slice(semicolon + 1);
    const cookie: ParsedCookie = { name, deletes: DELETES.test(attributes) };
    const domain = attributes === '' ? undefined : domainAttribute(attributes);
    if (domain !== undefined) cookie.domain = domain;
    out.push(cookie);
  }
  return out;
}

function splitFolded(header: string): string[] {
  const parts: string[] = [];
  let from = 0;
  NEXT_COOKIE.lastIndex = 0;
  for (let match = NEXT_COOKIE.exec(header); match !== null; match = NEXT_COOKIE.exec(header)) {
    const before = header.slice(from, match.index);
    // `Expires=Wed, 21 Oct 2015 …`: the comma after the weekday does not start a cookie (and the
    // lookahead above already needs `name=`, which a date does not give; this is belt and braces).
    if (EXPIRES_TAIL.test(before)) continue;
    parts.push(before);
    from = match.index + 1;
  }
  parts.push(header.slice(from));
  return parts;
}

/** The last Domain attribute (the one a browser uses), normalised; undefined when absent or empty. */
function domainAttribute(attributes: string): string | undefined {
  let domain: string | undefined;
  for (const attribute of attributes.split(';')) {
    const equals = attribute.indexOf('=');
    if (equals === -1) continue;
    if (attribute.slice(0, equals).trim().toLowerCase() !== 'domain') continue;
    const value = attribute.slice(equals + 1).trim().toLowerCase().replace(/^\.+/, '');
    domain = value === '' ? undefined : value;
  }
  return domain;
}

/** A cookie written by script: its name and where in the script's text the write starts. */
export interface ScriptCookie {
  name: string;
  offset: number;
}

/** The rest of a write statement, read for a deletion (`max-age=0`, `expires=Thu, 01 Jan 1970 …`). */
const STATEMENT_TAIL = 300;

/**
 * `document.cookie = "name=…"`, `document.cookie='_ga=' + v`, `` document.cookie = `_fbp=${v}` ``,
 * `document.cookie = "_ga" + "=" + v`: the name is a string literal. (`document.cookie = name +
 * "=" + value`, with the name in a variable, cannot be read statically and is not reported.)
 */
const DOCUMENT_COOKIE_WRITE =
  /document\s*\.\s*cookie\s*=(?!=)\s*\(?\s*(["'`])\s*([^"'`=;\s\\]+)\s*(?:=|\1\s*\+\s*["'`]=)/g;

/** `Cookies.set('name', …)` (js-cookie) and `$.cookie('name', …)` (jquery-cookie): a write, with a value argument. */
const LIBRARY_COOKIE_WRITE = /(?:\bCookies\s*\.\s*set|(?:\$|\bjQuery)\s*\.\s*cookie)\s*\(\s*(["'])([^"'=;\s\\]+)\1\s*,/g;

/** A write that deletes: `max-age=0` / negative, `expires=` a 1970 (or any 19xx) date, or js-cookie's `Cookies.remove`. */
const WRITE_DELETES = /max-age\s*=\s*(?:-\d+|0+)\b|expires\s*=\s*[a-z]{3},?\s*\d{1,2}\s[a-z]{3}\s(?:19\d\d|70)\b|expires\s*:\s*-\d/i;

/**
 * The rest of the statement after `from` (at most STATEMENT_TAIL characters): up to the first of
 * `ends` outside a string literal. `quote` is the quote the match left open ('' for none).
 */
function statementRest(content: string, from: number, quote: string, ends: string): string {
  let open = quote;
  const end = Math.min(content.length, from + STATEMENT_TAIL);
  for (let i = from; i < end; i++) {
    const ch = content[i]!;
    if (open !== '') {
      if (ch === '\\') i++;
      else if (ch === open) open = '';
    } else if (ch === '"' || ch === "'" || ch === '`') {
      open = ch;
    } else if (ends.includes(ch)) {
      return content.slice(from, i);
    }
  }
  return content.slice(from, end);
}

/** The quote that opens the last string literal of a match (the one the match ends in). */
function lastQuote(text: string): string {
  for (let i = text.length - 1; i >= 0; i--) if (text[i] === '"' || text[i] === "'" || text[i] === '`') return text[i]!;
  return '';
}

/** Bound on writes read from one script, so a pathological script stays linear. */
const MAX_WRITES_PER_SCRIPT = 100;

/** The cookies an inline script writes with a literal name, in the order written. */
export function scriptCookieWrites(content: string): ScriptCookie[] {
  const out: ScriptCookie[] = [];
  if (!content.includes('cookie') && !content.includes('Cookie')) return out;
  for (const [re, library] of [[DOCUMENT_COOKIE_WRITE, false], [LIBRARY_COOKIE_WRITE, true]] as const) {
    re.lastIndex = 0;
    for (let match = re.exec(content); match !== null && out.length < MAX_WRITES_PER_SCRIPT; match = re.exec(content)) {
      const from = match.index + match[0].length;
      // document.cookie: the match ends inside the string literal; a library call: after the name argument.
      const rest = library ? statementRest(content, from, '', ');\n') : statementRest(content, from, lastQuote(match[0]), ';,)\n');
      const statement = rest.replace(/["'`+\s]+/g, ' ');
      if (WRITE_DELETES.test(statement)) continue;
      out.push({ name: match[2]!, offset: match.index });
    }
  }
  return out.sort((a, b) => a.offset - b.offset);
}
