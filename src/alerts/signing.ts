// The failure event as it goes on the wire: serialised once, and signed over exactly those bytes.
// Every try is a new delivery id, timestamp and signature (Standard Webhooks); receivers
// deduplicate on audit.id.
import { createHmac } from 'node:crypto';
import type { EventChanges, EventFailure, TriggerBranch } from './matching.ts';

export const FAILURE_EVENT_TYPE = 'svc.audit.failure';
export const EVENT_VERSION = 1;

/** What the outbox row keeps: everything of the body except what changes per try. */
export interface StoredEvent {
  audit: {
    id: string;
    url: string;
    branch: TriggerBranch;
    createdAt: string;
    totals: { errors: number; warnings: number };
  };
  failures: EventFailure[];
  /** New-failures registrations only (issue 19); an every-audit event has none, as the spec's. */
  changes?: EventChanges;
}

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/** HMAC-SHA256 keyed with the secret's UTF-8 bytes over `${unixSeconds}.${deliveryId}.${body}`, hex. */
export function signature(secret: string, unixSeconds: number, deliveryId: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${unixSeconds}.${deliveryId}.${body}`, 'utf8').digest('hex');
}

/**
 * One try's body and headers. Field order is fixed: type, version, deliveryId, timestamp, audit,
 * failures, and for a new-failures event changes (an every-audit event is the spec's, byte for byte).
 */
export function signFailureEvent(secret: string, event: StoredEvent, deliveryId: string, at: Date): SignedRequest {
  const body = JSON.stringify({
    type: FAILURE_EVENT_TYPE,
    version: EVENT_VERSION,
    deliveryId,
    timestamp: at.toISOString(),
    // Rebuilt field by field: the stored copy is jsonb, which keeps its own key order.
    audit: {
      id: event.audit.id,
      url: event.audit.url,
      branch: event.audit.branch,
      createdAt: event.audit.createdAt,
      totals: { errors: event.audit.totals.errors, warnings: event.audit.totals.warnings },
    },
    failures: event.failures.map((f) => ({ control: f.control, status: f.status, severity: f.severity, evidence: f.evidence })),
    ...(event.changes === undefined
      ? {}
      : {
          changes: {
            againstAuditId: event.changes.againstAuditId,
            new: event.changes.new,
            fixed: event.changes.fixed,
            persisting: event.changes.persisting,
          },
        }),
  });
  const unixSeconds = Math.floor(at.getTime() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-svc-signature': `sha256=${signature(secret, unixSeconds, deliveryId, body)}`,
      'x-svc-timestamp': String(unixSeconds),
      'x-svc-delivery-id': deliveryId,
      'x-svc-event': FAILURE_EVENT_TYPE,
      'x-svc-version': String(EVENT_VERSION),
    },
  };
}
