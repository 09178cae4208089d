// A webhook's page (/dashboard/webhooks/{id}): any key's registration with its delivery attempts,
// newest first and paged, and its forms: pause, resume and delete (resend is attempt/attempt.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { deleteAnyRegistration, findOwnedRegistration, listAttempts, setRegistrationPaused, type OwnedRegistration } from '../../alerts/registrations.ts';
import { deliveriesOfAttempts } from '../../alerts/resend.ts';
import { getApiKey } from '../../auth/api-keys.ts';
import { decodeCursor, encodeCursor } from '../../db/keyset.ts';
import { attemptView, type AttemptView } from '../attempt/attempt.ts';
import { auditHref } from '../common/audits.ts';
import type { DashboardContext } from '../common/guard.ts';
import { CsrfForm, DASHBOARD, FORM_PAGES, html, IdParams, redirect, ADMIN_PAGES } from '../common/openapi.ts';
import { notFound, page, signedIn, UUID } from '../common/page.ts';
import { moment, template, type Moment, type PageBase, type SignedIn } from '../common/render.ts';
import type { NoticeId } from '../overview/overview.ts';

const ATTEMPTS_PER_PAGE = 25;

/** Fixed messages a redirect may ask the webhook page to show: a forged link can show only these. */
const WEBHOOK_NOTICES = {
  resent: 'The event is queued to be sent again: its try appears here, newest first, once the receiver has answered (reload the page).',
  paused: 'The webhook is paused: nothing is sent to it until it is resumed. Events of new audits wait in the outbox meanwhile.',
  resumed: 'The webhook is resumed: the events that waited are sent now.',
} as const;
type WebhookNoticeId = keyof typeof WEBHOOK_NOTICES;

export interface WebhookView {
  id: string;
  url: string;
  trigger: { severity: string; branch: string; on: string };
  /** The owner key's display form and label; null in a member's view. */
  owner: { display: string; label: string | null } | null;
  verifiedAt: Moment;
  latestAttempt: AttemptView | null;
  /** Since when an admin has paused it; null while it delivers. */
  pausedAt: Moment | null;
}

export function webhookView(registration: OwnedRegistration, labels: ReadonlyMap<string, string | null>): WebhookView {
  return {
    id: registration.id,
    url: registration.url,
    trigger: registration.trigger,
    owner: { display: registration.keyPrefix, label: labels.get(registration.keyId) ?? null },
    verifiedAt: moment(registration.verifiedAt),
    latestAttempt: registration.latestAttempt ? attemptView(registration.latestAttempt) : null,
    pausedAt: registration.pausedAt ? moment(registration.pausedAt) : null,
  };
}

/**
 * A webhook as a member sees it: the destination's origin only, since a receiver's secret often
 * sits in its path or query (chat services' incoming webhooks), and no owner key.
 */
export function viewerWebhookView(registration: OwnedRegistration): WebhookView {
  return { ...webhookView(registration, new Map()), url: `${new URL(registration.url).origin}/…`, owner: null };
}

interface WebhookPage extends PageBase {
  session: SignedIn;
  notice?: string;
  webhook: WebhookView;
  attempts: (AttemptView & {
    deliveryId: string;
    auditId: string;
    /** The page of the audit whose event the delivery carries. */
    auditHref: string;
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

const renderWebhook = template<WebhookPage>(import.meta.dirname, 'webhook');

const AttemptsQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'Where the previous page ended.' })),
  notice: Type.Optional(Type.String({ maxLength: 50, description: 'A fixed message to show (`resent`); any other value shows none.' })),
});

export function webhookPages(app: FastifyInstance, { db, guard }: DashboardContext) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get(
    '/webhooks/:id',
    {
      onRequest: guard.admin,
      schema: {
        ...DASHBOARD,
        summary: 'One webhook’s delivery attempts',
        description: `The registration and its attempts, newest first, ${ATTEMPTS_PER_PAGE} a page.`,
        params: IdParams,
        querystring: AttemptsQuery,
        response: { 200: html('The registration and a page of its attempts.'), 404: html('No such registration, or a cursor this page did not issue.'), ...ADMIN_PAGES },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const missing = () => notFound(reply, session, 'Webhook not found', 'No webhook has this id; it may have been deleted by its key.');
      const { cursor, notice } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && after === undefined) return missing();
      const registration = await findOwnedRegistration(db, request.params.id);
      if (!registration) return missing();
      const [attempts, key] = await Promise.all([
        listAttempts(db, registration.keyId, registration.id, { limit: ATTEMPTS_PER_PAGE, after }),
        getApiKey(db, registration.keyId),
      ]);
      if (!attempts) return missing();
      const deliveries = await deliveriesOfAttempts(db, attempts.attempts.map((attempt) => attempt.deliveryId));
      const deliveryColumn = (attemptId: string) => {
        const delivery = deliveries.get(attemptId);
        if (!delivery?.newest) return null;
        if (delivery.state === 'pending') return 'pending';
        // A resent delivery of a revoked key would wait forever: the worker never claims its rows.
        return key?.revokedAt ? 'revoked' : 'resend';
      };
      return page(
        reply,
        200,
        renderWebhook({
          title: 'Webhook attempts',
          session: signedIn(session),
          ...(notice !== undefined && Object.hasOwn(WEBHOOK_NOTICES, notice) ? { notice: WEBHOOK_NOTICES[notice as WebhookNoticeId] } : {}),
          webhook: webhookView(registration, new Map([[registration.keyId, key?.label ?? null]])),
          attempts: attempts.attempts.map((attempt) => ({
            ...attemptView(attempt),
            deliveryId: attempt.deliveryId,
            auditId: attempt.auditId,
            auditHref: auditHref(attempt.auditId),
            attemptNumber: attempt.attemptNumber,
            responseBody: attempt.responseBody,
            delivery: deliveryColumn(attempt.deliveryId),
          })),
          olderHref: attempts.next ? `/dashboard/webhooks/${registration.id}?cursor=${encodeURIComponent(encodeCursor(attempts.next))}` : null,
        }),
      );
    },
  );

  for (const action of ['pause', 'resume'] as const) {
    typed.post(
      `/webhooks/:id/${action}`,
      {
        onRequest: guard.admin,
        preHandler: guard.csrf,
        schema: {
          ...DASHBOARD,
          summary: action === 'pause' ? 'Pause a webhook' : 'Resume a paused webhook',
          description:
            action === 'pause'
              ? 'Form field `_csrf`. Any key’s registration: the delivery worker sends nothing to it (no first try, no retry) until ' +
                'it is resumed; events of new audits still queue. A try already being sent finishes. Redirects to the webhook page.'
              : 'Form field `_csrf`. The deliveries that waited are due at once (their retry schedule is kept). Redirects to the webhook page.',
          params: IdParams,
          body: CsrfForm,
          response: {
            ...FORM_PAGES,
            303: redirect(`${action === 'pause' ? 'Paused' : 'Resumed'} (or already so): to the webhook page, which says so; or no session: to /dashboard/login.`),
            404: html('No registration has this id.'),
          },
        },
      },
      async (request, reply) => {
        const session = request.dashboardSession!;
        const { id } = request.params;
        if (!(UUID.test(id) && (await setRegistrationPaused(db, id, action === 'pause')))) {
          return notFound(reply, session, 'Webhook not found', 'No webhook has this id; it may have been deleted.');
        }
        if (action === 'resume') request.server.deliveryWorker?.notify();
        request.log.info({ webhookId: id, userId: session.userId }, `webhook ${action === 'pause' ? 'paused' : 'resumed'} from the dashboard`);
        const notice: WebhookNoticeId = action === 'pause' ? 'paused' : 'resumed';
        return reply.redirect(`/dashboard/webhooks/${id}?notice=${notice}`, 303);
      },
    );
  }

  typed.post(
    '/webhooks/:id/delete',
    {
      onRequest: guard.admin,
      preHandler: guard.csrf,
      schema: {
        ...DASHBOARD,
        summary: 'Delete a webhook',
        description:
          'Form field `_csrf`. Deletes any key’s registration, as DELETE /api/v1/alerts/webhook/{id} does for its own key: its ' +
          'pending deliveries are not sent and its attempts go with it. The way to remove a revoked key’s webhooks, which no ' +
          'API key can reach. Redirects to the overview, which says so.',
        params: IdParams,
        body: CsrfForm,
        response: {
          ...FORM_PAGES,
          303: redirect('Deleted: to the overview, which says so; or no session: to /dashboard/login.'),
          404: html('No registration has this id (it may have been deleted already).'),
        },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const { id } = request.params;
      if (!(UUID.test(id) && (await deleteAnyRegistration(db, id)))) {
        return notFound(reply, session, 'Webhook not found', 'No webhook has this id; it may have been deleted already.');
      }
      request.log.info({ webhookId: id, userId: session.userId }, 'webhook deleted from the dashboard');
      const notice: NoticeId = 'webhook-deleted';
      return reply.redirect(`/dashboard?notice=${notice}#webhooks`, 303);
    },
  );
}
