// API keys in the dashboard: how the overview lists them, the create form (its raw key shown once,
// on key-created.eta), revoke, and a key's own audit budget. Here because the CLI cannot manage
// keys while the server holds the embedded database.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  API_KEY_LABEL_MAX_LENGTH,
  checkApiKeyLabel,
  checkApiKeyRateLimit,
  createApiKeyOnce,
  getApiKey,
  revokeApiKey,
  setApiKeyRateLimit,
  type ApiKeyRow,
} from '../../auth/api-keys.ts';
import type { DashboardContext } from '../common/guard.ts';
import { CsrfField, CsrfForm, DASHBOARD, FORM_PAGES, html, IdParams, redirect } from '../common/openapi.ts';
import { message, notFound, page, signedIn } from '../common/page.ts';
import { moment, template, type Moment, type PageBase, type SignedIn } from '../common/render.ts';
import type { NoticeId } from '../overview/overview.ts';

export interface KeyView {
  id: string;
  display: string;
  label: string | null;
  createdAt: Moment;
  revokedAt: Moment | null;
  /** Its audit budget per window: its own, or the default's figure. */
  budget: { own: boolean; limit: number };
}

/** `defaultLimit`: AUDIT_RATE_LIMIT, the budget of a key without one of its own. */
export function keyView(key: ApiKeyRow, defaultLimit: number): KeyView {
  return {
    id: key.id,
    display: key.display,
    label: key.label,
    createdAt: moment(key.createdAt),
    revokedAt: key.revokedAt ? moment(key.revokedAt) : null,
    budget: key.rateLimit === null ? { own: false, limit: defaultLimit } : { own: true, limit: key.rateLimit },
  };
}

interface KeyCreatedPage extends PageBase {
  session: SignedIn;
  key: { display: string; label: string | null; rawKey: string };
}

const renderKeyCreated = template<KeyCreatedPage>(import.meta.dirname, 'key-created');

const FORM_ONCE = /^[A-Za-z0-9_-]{22}$/;

/** 16 random bytes: the create-key form's submission id. */
export const newFormOnce = () => randomBytes(16).toString('base64url');

/**
 * The id of the key one submission of the create-key form makes: a UUID (version 8, "custom")
 * from the session and the form's random value, so the same submission always names the same key.
 */
function keyIdOf(sessionId: string, once: string): string {
  const hex = createHash('sha256').update(`${sessionId}\n${once}`, 'utf8').digest('hex');
  const variant = (8 | (Number.parseInt(hex[16]!, 16) & 3)).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const NewKeyForm = Type.Object(
  {
    _csrf: CsrfField,
    _once: Type.Optional(Type.String({ maxLength: 100, description: 'A random value the form was rendered with: a resubmission of it makes no second key.' })),
    label: Type.Optional(
      Type.String({
        maxLength: API_KEY_LABEL_MAX_LENGTH,
        description: 'Who or what will use the key; blank for none. No control characters (tab, newline, escape…) or text-direction controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).',
      }),
    ),
  },
  { additionalProperties: false },
);

const BudgetForm = Type.Object(
  {
    _csrf: CsrfField,
    rateLimit: Type.Optional(
      Type.String({ maxLength: 20, description: 'The key’s own audit budget per window, a whole number from 1 to 1,000,000; or `default` for AUDIT_RATE_LIMIT.' }),
    ),
  },
  { additionalProperties: false },
);

export function keyPages(app: FastifyInstance, { db, guard }: DashboardContext) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.post(
    '/keys',
    {
      onRequest: guard.admin,
      preHandler: guard.csrf,
      schema: {
        ...DASHBOARD,
        summary: 'Create an API key',
        description:
          'Form fields `_csrf`, `_once` (the form’s random submission id) and `label` (optional). Answers with a page that ' +
          'shows the raw key once (Cache-Control: no-store); only its SHA-256 is stored, so nothing can show it again. The ' +
          'key’s id derives from the session and `_once`, so the same submission sent twice makes one key.',
        body: NewKeyForm,
        response: {
          201: html('The new key, shown this once.'),
          409: html('This submission of the form already made its key (a reload resubmits it): no second key, and the first is not shown again.'),
          ...FORM_PAGES,
          400: html('The form is incomplete, or the label is too long or holds a control or text-direction character (the page says which): no key was made.'),
        },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const { _once: once, label: rawLabel } = request.body;
      if (once === undefined || !FORM_ONCE.test(once)) {
        return message(reply, 400, { title: 'Request refused', session: signedIn(session), heading: 'The request was refused', message: 'The form is incomplete. Go back to the dashboard and use its form.' });
      }
      const checked = checkApiKeyLabel(rawLabel);
      if (!checked.ok) {
        return message(reply, 400, {
          title: 'Request refused',
          session: signedIn(session),
          heading: 'The label was refused',
          message: `The label ${checked.problem}. No key was created; go back and enter another label.`,
          link: { href: '/dashboard#keys', text: 'Back to the API keys' },
        });
      }
      const { label } = checked;
      const created = await createApiKeyOnce(db, keyIdOf(session.sessionId, once), label);
      if (created === 'exists') {
        return message(reply, 409, {
          title: 'Key already created',
          session: signedIn(session),
          heading: 'This key was already created',
          message: 'This form was sent before (a reload sends it again), and its key was made then. A key is shown only once, so it cannot be shown now. If nobody copied it, revoke it and create another.',
          link: { href: '/dashboard#keys', text: 'Back to the API keys' },
        });
      }
      request.log.info({ keyId: created.id, userId: session.userId }, 'API key created from the dashboard');
      const { display } = (await getApiKey(db, created.id))!;
      return page(reply, 201, renderKeyCreated({ title: 'API key created', session: signedIn(session), key: { display, label, rawKey: created.rawKey } }));
    },
  );

  typed.post(
    '/keys/:id/revoke',
    {
      onRequest: guard.admin,
      preHandler: guard.csrf,
      schema: {
        ...DASHBOARD,
        summary: 'Revoke an API key',
        description: 'Form field `_csrf`. Revokes at once: the next request with the key gets 401. Redirects to the key list.',
        params: IdParams,
        body: CsrfForm,
        response: { ...FORM_PAGES, 303: redirect('Revoked (or already revoked): to the key list, which says so; or no session: to /dashboard/login.'), 404: html('No key has this id.') },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const result = await revokeApiKey(db, request.params.id);
      if (result === 'not-found') return notFound(reply, session, 'Key not found', 'No API key has this id.');
      if (result === 'revoked') request.log.info({ keyId: request.params.id, userId: session.userId }, 'API key revoked from the dashboard');
      const notice: NoticeId = result === 'revoked' ? 'key-revoked' : 'key-already-revoked';
      return reply.redirect(`/dashboard?notice=${notice}#keys`, 303);
    },
  );

  typed.post(
    '/keys/:id/rate-limit',
    {
      onRequest: guard.admin,
      preHandler: guard.csrf,
      schema: {
        ...DASHBOARD,
        summary: 'Set or clear an API key’s audit budget',
        description:
          'Form fields `_csrf` and `rateLimit`: a whole number from 1 to 1,000,000 gives the key its own audit budget per ' +
          'window (AUDIT_RATE_WINDOW_SECONDS) instead of AUDIT_RATE_LIMIT; `default` returns it to AUDIT_RATE_LIMIT. It applies ' +
          'from the key’s next request, and the requests already made in the current window count against it. Redirects to the key list.',
        params: IdParams,
        body: BudgetForm,
        response: {
          ...FORM_PAGES,
          303: redirect('Set (or already so): to the key list, which says so; or no session: to /dashboard/login.'),
          400: html('The form could not be read, or the budget is not a whole number from 1 to 1,000,000 nor `default` (the page says so): nothing changed.'),
          404: html('No key has this id.'),
        },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const checked = checkApiKeyRateLimit(request.body.rateLimit ?? '');
      if (!checked.ok) {
        return message(reply, 400, {
          title: 'Request refused',
          session: signedIn(session),
          heading: 'The budget was refused',
          message: `The audit budget ${checked.problem}. Nothing was changed; go back and enter another.`,
          link: { href: '/dashboard#keys', text: 'Back to the API keys' },
        });
      }
      const { id } = request.params;
      const result = await setApiKeyRateLimit(db, id, checked.rateLimit);
      if (result === 'not-found') return notFound(reply, session, 'Key not found', 'No API key has this id.');
      if (result === 'updated') request.log.info({ keyId: id, userId: session.userId, rateLimit: checked.rateLimit }, 'API key audit budget set from the dashboard');
      const notice: NoticeId = checked.rateLimit === null ? 'key-budget-default' : 'key-budget-set';
      return reply.redirect(`/dashboard?notice=${notice}#keys`, 303);
    },
  );
}
