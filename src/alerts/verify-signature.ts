// Receiver-side check of a failure event's signature. Standalone on purpose (node:crypto only, no
// import from the service), so a receiver can copy this one file.
//
//   X-Svc-Signature: sha256=<hex HMAC-SHA256(challenge as UTF-8, `${X-Svc-Timestamp}.${X-Svc-Delivery-Id}.${body}`)>
//
// `body` must be the raw bytes received, before any JSON parsing: a re-serialised object may differ.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureHeaders =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | undefined>;

export interface VerifySignatureInput {
  /** The challenge of the registration's verification ping: the signing secret. */
  secret: string;
  body: string | Uint8Array;
  /** Fetch `Headers`, or a Node `IncomingHttpHeaders`-like object (any case of names). */
  headers: SignatureHeaders;
  /** How far X-Svc-Timestamp may be from `now`, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** Default: the current time. */
  now?: Date;
}

export type VerifySignatureResult =
  | { valid: true; deliveryId: string; timestamp: number }
  | { valid: false; reason: 'missing headers' | 'malformed timestamp' | 'timestamp outside tolerance' | 'signature mismatch' };

function header(headers: SignatureHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() === name) return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/** Checks an event's signature (constant-time) and that its timestamp is within the tolerance. */
export function verifySignature(input: VerifySignatureInput): VerifySignatureResult {
  const signature = header(input.headers, 'x-svc-signature');
  const timestamp = header(input.headers, 'x-svc-timestamp');
  const deliveryId = header(input.headers, 'x-svc-delivery-id');
  if (signature === undefined || timestamp === undefined || deliveryId === undefined) return { valid: false, reason: 'missing headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { valid: false, reason: 'malformed timestamp' };
  const seconds = Number(timestamp);
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  // Rejecting old timestamps bounds how long a captured request can be replayed.
  if (Math.abs(now - seconds) > (input.toleranceSeconds ?? 300)) return { valid: false, reason: 'timestamp outside tolerance' };
  const body = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : Buffer.from(input.body);
  const expected = createHmac('sha256', Buffer.from(input.secret, 'utf8'))
    .update(`${timestamp}.${deliveryId}.`, 'utf8')
    .update(body)
    .digest();
  const match = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  // Equal lengths by construction (32 bytes), as timingSafeEqual requires.
  if (!match || !timingSafeEqual(Buffer.from(match[1]!, 'hex'), expected)) return { valid: false, reason: 'signature mismatch' };
  return { valid: true, deliveryId, timestamp: seconds };
}
