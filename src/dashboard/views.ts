// The dashboard's pages: Eta templates in views/, one typed view model per page. Eta escapes
// every `<%= %>` interpolation by default (autoEscape), so text from the database (webhook URLs,
// key labels, evidence, a receiver's answer) always renders as text. It was chosen over nunjucks
// for being small, maintained, written in TypeScript and dependency-free. The only raw `<%~ %>`
// outputs are the layout's page body (already escaped by its own template) and the style sheet.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Eta } from 'eta';

const VIEWS_DIR = path.join(import.meta.dirname, 'views');

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

const eta = new Eta({ views: VIEWS_DIR, autoEscape: true, cache: true });

/** Who is signed in, as the page header shows it; absent on the login page. */
export interface SignedIn {
  email: string;
  csrfToken: string;
  /** Members see only their name and the log-out button: the sections are not theirs. */
  admin: boolean;
}

interface PageBase {
  /** Prefixes the document title: every page has its own. */
  title: string;
  session?: SignedIn;
}

/** A moment as pages show it: readable UTC text plus the machine-readable ISO form for `<time>`. */
export interface Moment {
  text: string;
  iso: string;
}

export interface AttemptView {
  outcome: 'delivered' | 'failed';
  statusCode: number | null;
  reason: string | null;
  attemptedAt: Moment;
  durationMs: number;
}

export interface WebhookView {
  id: string;
  url: string;
  trigger: { severity: string; branch: string };
  owner: { display: string; label: string | null };
  verifiedAt: Moment;
  latestAttempt: AttemptView | null;
  /** Since when an admin has paused it; null while it delivers. */
  pausedAt: Moment | null;
}

export interface PillarView {
  /** Its totals in words: errors, warnings, and how many of those are inconclusive. */
  summary: string;
  standard?: string;
  createdAt: Moment;
}

export interface OriginView {
  origin: string;
  /** In PILLARS order; null where the origin has no audit of that pillar. */
  pillars: (PillarView | null)[];
}

export interface TicketView {
  origin: string;
  pillar: string;
  control: string;
  requirement: string;
  severity: string;
  openedAt: Moment;
  lastFailedAt: Moment;
}

export interface KeyView {
  id: string;
  display: string;
  label: string | null;
  createdAt: Moment;
  revokedAt: Moment | null;
}

export interface OverviewPage extends PageBase {
  session: SignedIn;
  notice?: string;
  pillars: readonly { id: string; name: string }[];
  webhooks: WebhookView[];
  origins: OriginView[];
  tickets: TicketView[];
  keys: KeyView[];
  /** The create-key form's submission id (see routes.ts, keyIdOf). */
  formOnce: string;
  report: { target: string; error?: string };
}

export interface WebhookPage extends PageBase {
  session: SignedIn;
  notice?: string;
  webhook: WebhookView;
  attempts: (AttemptView & {
    deliveryId: string;
    auditId: string;
    attemptNumber: number;
    responseBody: string | null;
    /**
     * On the delivery's newest try: `resend` when it is finished (delivered or failed), `pending`
     * while it waits or is sent, `revoked` when finished but the owner key is revoked (never sent again).
     */
    delivery: 'resend' | 'pending' | 'revoked' | null;
  })[];
  /** Link to the next (older) page of attempts. */
  olderHref: string | null;
}

export interface LoginPage extends PageBase {
  email: string;
  /** The `_csrf` field: the token of the sign-in cookie this page or an earlier one set. */
  csrfToken: string;
  error?: string;
}

export interface KeyCreatedPage extends PageBase {
  session: SignedIn;
  key: { display: string; label: string | null; rawKey: string };
}

export interface MessagePage extends PageBase {
  heading: string;
  message: string;
  /** Where the reader can go next. */
  link: { href: string; text: string };
}

interface Views {
  login: LoginPage;
  overview: OverviewPage;
  webhook: WebhookPage;
  'key-created': KeyCreatedPage;
  message: MessagePage;
}

export function render<Name extends keyof Views>(name: Name, data: Views[Name]): string {
  return eta.render(`./${name}`, { ...data, css: CSS });
}

export function moment(date: Date): Moment {
  const iso = date.toISOString();
  return { iso, text: `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` };
}
