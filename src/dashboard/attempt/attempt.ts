// One delivery attempt: how lists show its outcome (attempt.eta, in the overview's webhook table)
// and the resend form of the webhook page, which queues the attempt's delivery again.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { findOwnedRegistration, type LatestAttempt } from '../../alerts/registrations.ts';
import { resendDelivery } from '../../alerts/resend.ts';
import { getApiKey } from '../../auth/api-keys.ts';
import type { DashboardContext } from '../common/guard.ts';
import { CsrfForm, DASHBOARD, FORM_PAGES, html, redirect } from '../common/openapi.ts';
import { message, notFound, signedIn, UUID } from '../common/page.ts';
import { moment, type Moment } from '../common/render.ts';

export interface AttemptView {
  outcome: 'delivered' | 'failed';
  statusCode: number | null;
  reason: string | null;
  attemptedAt: Moment;
  durationMs: number;
}

export function attemptView(attempt: LatestAttempt): AttemptView {
  return {
    outcome: attempt.outcome,
    statusCode: attempt.statusCode,
    reason: attempt.reason,
    attemptedAt: moment(attempt.attemptedAt),
    durationMs: attempt.durationMs,
  };
}

const AttemptParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'The registration’s id.' }),
  deliveryId: Type.String({ maxLength: 100, description: 'The `deliveryId` of any try of the delivery to resend.' }),
});

export function attemptPages(app: FastifyInstance, { db, guard }: DashboardContext) {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/webhooks/:id/attempts/:deliveryId/resend',
    {
      onRequest: guard.admin,
      preHandler: guard.csrf,
      schema: {
        ...DASHBOARD,
        summary: 'Resend a delivery',
        description:
          'Form field `_csrf`. The dashboard’s form for POST /api/v1/alerts/webhook/{id}/attempts/{deliveryId}/resend, on ' +
          'any key’s registration: the attempt’s delivery, if delivered or failed, goes back to the outbox as one new ' +
          'try of the same event (see that route). Redirects to the webhook page, which says so. Bounded by one requeue ' +
          'per delivery at a time (a pending delivery is a 409 page); the per-key budget is the API’s, not an admin’s.',
        params: AttemptParams,
        body: CsrfForm,
        response: {
          ...FORM_PAGES,
          303: redirect('Requeued: to the webhook page, which says so; or no session: to /dashboard/login.'),
          404: html('No such registration, or no try with this `deliveryId` in it.'),
          409: html('The delivery is pending (waiting for a retry, or being sent), or the webhook’s key is revoked: nothing changed.'),
        },
      },
    },
    async (request, reply) => {
      const session = request.dashboardSession!;
      const { id, deliveryId } = request.params;
      const back = { href: `/dashboard/webhooks/${encodeURIComponent(id)}#attempts`, text: 'Back to the webhook’s attempts' };
      const registration = UUID.test(id) ? await findOwnedRegistration(db, id) : undefined;
      if (registration && (await getApiKey(db, registration.keyId))?.revokedAt) {
        return message(reply, 409, {
          title: 'Key revoked',
          session: signedIn(session),
          heading: 'The webhook’s key is revoked',
          message: 'A revoked key’s webhooks send nothing, so the delivery was not queued again. Delete the webhook from its page if it is no longer wanted.',
          link: back,
        });
      }
      const result = registration && UUID.test(deliveryId) ? await resendDelivery(db, { webhookId: id, attemptId: deliveryId }) : ({ outcome: 'not found' } as const);
      if (result.outcome === 'not found') {
        return notFound(reply, session, 'Attempt not found', 'This webhook has no delivery try with this id; the webhook may have been deleted by its key.');
      }
      if (result.outcome === 'pending') {
        return message(reply, 409, {
          title: 'Delivery pending',
          session: signedIn(session),
          heading: 'This delivery is still pending',
          message: 'It is waiting for its next retry or being sent now, so it was not queued again. Once it is delivered or failed it can be resent.',
          link: back,
        });
      }
      request.server.deliveryWorker?.notify();
      request.log.info({ webhookId: id, resentFrom: deliveryId, attemptNumber: result.attemptNumber, userId: session.userId }, 'webhook delivery requeued from the dashboard');
      return reply.redirect(`/dashboard/webhooks/${id}?notice=resent#attempts`, 303);
    },
  );
}
