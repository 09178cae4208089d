// Rendering for every dashboard page: one Eta instance over src/dashboard, so each page's template
// lives beside its module and reaches the shared layout as `/common/layout`. Eta escapes every
// `<%= %>` interpolation by default (autoEscape), so text from the database (webhook URLs, key
// labels, evidence, page markup in snippets, a receiver's answer) always renders as text. It was
// chosen over nunjucks for being small, maintained, written in TypeScript and dependency-free. The
// only raw `<%~ %>` outputs are the layout's page body (already escaped by its own template), the
// style sheet and included partials.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Eta } from 'eta';

/** The root Eta resolves templates from: every page folder is below it. */
const DASHBOARD_DIR = path.dirname(import.meta.dirname);

// Inlined into every page rather than served from a route: one request per page, and the WCAG
// test sees the same colours a browser does. Comments are dropped: they are for this file's readers.
const CSS = fs.readFileSync(path.join(import.meta.dirname, 'dashboard.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').trim();

/** The CSP source that admits exactly the inlined style sheet and no other inline style. */
export const STYLE_HASH_SOURCE = `'sha256-${createHash('sha256').update(CSS, 'utf8').digest('base64')}'`;

/**
 * No script at all, no plugin, no framing, forms only to this origin, no `<base>` rewriting.
 * `data:` images only for the empty favicon, which spares every page a /favicon.ico request.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'none'",
  `style-src ${STYLE_HASH_SOURCE}`,
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const eta = new Eta({ views: DASHBOARD_DIR, autoEscape: true, cache: true });

/** Who is signed in, as the page header shows it; absent on the login page. */
export interface SignedIn {
  email: string;
  csrfToken: string;
  /** A member is a viewer: the header links only the sections a member may open. */
  admin: boolean;
}

export interface PageBase {
  /** Prefixes the document title: every page has its own. */
  title: string;
  session?: SignedIn;
}

/** A moment as pages show it: readable UTC text plus the machine-readable ISO form for `<time>`. */
export interface Moment {
  text: string;
  iso: string;
}

/**
 * The renderer of the template `name` (without `.eta`) in the folder `dir` (a page module passes
 * its own `import.meta.dirname`): typed by the page's view model.
 */
export function template<Data extends PageBase>(dir: string, name: string): (data: Data) => string {
  const file = `./${path.relative(DASHBOARD_DIR, path.join(dir, name)).split(path.sep).join('/')}`;
  return (data) => eta.render(file, { ...data, css: CSS });
}

export function moment(date: Date): Moment {
  const iso = date.toISOString();
  return { iso, text: `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` };
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
