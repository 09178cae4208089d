// The sender's signature and the receiver helper, checked against each other and against an
// independent HMAC (WebCrypto, not node:crypto's createHmac that the sender uses).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signFailureEvent, type StoredEvent } from '../../src/alerts/signing.ts';
import { verifySignature } from '../../src/alerts/verify-signature.ts';

const SECRET = 'Zq3v9mXrC1yA0bN7kLpT4sWd8eFgHiJkLmNoPqRsTuV';
const AT = new Date('2026-03-01T10:00:15.250Z');
const DELIVERY = '6a1f0f3e-2b7c-4d7e-9f55-1c2d3e4f5a6b';
const EVENT: StoredEvent = {
  audit: {
    id: '0b6f3c1e-8d2a-4f4b-9c1d-2e5a7b9c0d11',
    url: 'https://example.com/ünïcode?q=1',
    branch: 'privacy',
    createdAt: '2026-03-01T10:00:14.000Z',
    totals: { errors: 1, warnings: 2 },
  },
  failures: [{ control: 'privacy.privacy-policy-link', status: 'fail', severity: 'error', evidence: 'No link named “privacy” — 🍪' }],
};

async function webCryptoHmacHex(key: string, message: Uint8Array<ArrayBuffer>): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return Buffer.from(await crypto.subtle.sign('HMAC', cryptoKey, message)).toString('hex');
}

test('the body keeps the spec’s field order whatever order the stored copy has', () => {
  const shuffled = JSON.parse(JSON.stringify({ failures: EVENT.failures.map((f) => ({ evidence: f.evidence, severity: f.severity, status: f.status, control: f.control })), audit: { totals: { warnings: 2, errors: 1 }, createdAt: EVENT.audit.createdAt, branch: 'privacy', url: EVENT.audit.url, id: EVENT.audit.id } }));
  assert.equal(signFailureEvent(SECRET, shuffled, DELIVERY, AT).body, signFailureEvent(SECRET, EVENT, DELIVERY, AT).body);
});

test('the body has exactly the spec fields in order, and the headers carry timestamp, id, event and version', () => {
  const { body, headers } = signFailureEvent(SECRET, EVENT, DELIVERY, AT);
  const parsed = JSON.parse(body);
  assert.deepEqual(Object.keys(parsed), ['type', 'version', 'deliveryId', 'timestamp', 'audit', 'failures']);
  assert.equal(parsed.type, 'svc.audit.failure');
  assert.equal(parsed.version, 1);
  assert.equal(parsed.deliveryId, DELIVERY);
  assert.equal(parsed.timestamp, '2026-03-01T10:00:15.250Z');
  assert.deepEqual(parsed.audit, EVENT.audit);
  assert.deepEqual(parsed.failures, EVENT.failures);
  assert.deepEqual(Object.keys(parsed.audit), ['id', 'url', 'branch', 'createdAt', 'totals']);
  assert.deepEqual(Object.keys(parsed.failures[0]), ['control', 'status', 'severity', 'evidence']);
  assert.equal(headers['x-svc-timestamp'], String(Math.floor(AT.getTime() / 1000)));
  assert.equal(headers['x-svc-delivery-id'], DELIVERY);
  assert.equal(headers['x-svc-event'], 'svc.audit.failure');
  assert.equal(headers['x-svc-version'], '1');
  assert.equal(headers['content-type'], 'application/json');
  assert.match(headers['x-svc-signature']!, /^sha256=[0-9a-f]{64}$/);
});

test('a new-failures event: the spec’s fields in order, then changes; an every-audit event has no changes field', () => {
  const changes = { againstAuditId: '7d1e2f30-4a5b-4c6d-8e9f-a0b1c2d3e4f5', new: 1, fixed: 2, persisting: 3 };
  // The stored copy is jsonb: its keys come back in any order.
  const stored = JSON.parse(JSON.stringify({ ...EVENT, changes: { persisting: 3, fixed: 2, new: 1, againstAuditId: changes.againstAuditId } }));
  const parsed = JSON.parse(signFailureEvent(SECRET, stored, DELIVERY, AT).body);
  assert.deepEqual(Object.keys(parsed), ['type', 'version', 'deliveryId', 'timestamp', 'audit', 'failures', 'changes']);
  assert.deepEqual(Object.keys(parsed.changes), ['againstAuditId', 'new', 'fixed', 'persisting']);
  assert.deepEqual(parsed.changes, changes);
  const { changes: _, ...withoutChanges } = parsed;
  assert.equal(JSON.stringify(withoutChanges), signFailureEvent(SECRET, EVENT, DELIVERY, AT).body, 'otherwise byte for byte the every-audit body');
});

test('the signature is HMAC-SHA256 keyed with the challenge’s UTF-8 bytes over `${timestamp}.${deliveryId}.${body}` (independent HMAC)', async () => {
  const { body, headers } = signFailureEvent(SECRET, EVENT, DELIVERY, AT);
  const raw = Buffer.from(body, 'utf8');
  const message = new Uint8Array(Buffer.concat([Buffer.from(`${headers['x-svc-timestamp']}.${DELIVERY}.`), raw]));
  assert.equal(headers['x-svc-signature'], `sha256=${await webCryptoHmacHex(SECRET, message)}`);
});

test('verifySignature accepts what the sender sends: string or bytes, Node or fetch headers, any header case', () => {
  const { body, headers } = signFailureEvent(SECRET, EVENT, DELIVERY, AT);
  const now = new Date(AT.getTime() + 60_000);
  const expected = { valid: true, deliveryId: DELIVERY, timestamp: Math.floor(AT.getTime() / 1000) };
  assert.deepEqual(verifySignature({ secret: SECRET, body, headers, now }), expected);
  assert.deepEqual(verifySignature({ secret: SECRET, body: Buffer.from(body), headers, now }), expected);
  assert.deepEqual(verifySignature({ secret: SECRET, body: new Uint8Array(Buffer.from(body)), headers: new Headers(headers), now }), expected);
  const shouted = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
  assert.deepEqual(verifySignature({ secret: SECRET, body, headers: shouted, now }), expected);
});

test('verifySignature rejects tampering, another secret, stale or future timestamps and malformed headers', () => {
  const { body, headers } = signFailureEvent(SECRET, EVENT, DELIVERY, AT);
  const now = AT;
  const check = (over: Partial<Parameters<typeof verifySignature>[0]>) => verifySignature({ secret: SECRET, body, headers, now, ...over });
  const mismatch = { valid: false, reason: 'signature mismatch' };
  assert.deepEqual(check({ body: body.replace('"errors":1', '"errors":0') }), mismatch);
  assert.deepEqual(check({ body: `${body} ` }), mismatch);
  assert.deepEqual(check({ secret: `${SECRET}x` }), mismatch);
  assert.deepEqual(check({ headers: { ...headers, 'x-svc-delivery-id': '00000000-0000-4000-8000-000000000000' } }), mismatch);
  assert.deepEqual(check({ headers: { ...headers, 'x-svc-signature': 'sha256=abc' } }), mismatch);
  assert.deepEqual(check({ headers: { ...headers, 'x-svc-signature': headers['x-svc-signature']!.replace('sha256=', 'sha1=') } }), mismatch);
  // A replay with a fresh timestamp does not carry a valid signature.
  const later = String(Number(headers['x-svc-timestamp']) + 10);
  assert.deepEqual(check({ headers: { ...headers, 'x-svc-timestamp': later } }), mismatch);

  const outside = { valid: false, reason: 'timestamp outside tolerance' };
  assert.deepEqual(check({ now: new Date(AT.getTime() + 301_000) }), outside);
  assert.deepEqual(check({ now: new Date(AT.getTime() - 301_000) }), outside);
  assert.equal(check({ now: new Date(AT.getTime() + 299_000) }).valid, true);
  assert.deepEqual(check({ now: new Date(AT.getTime() + 31_000), toleranceSeconds: 30 }), outside);

  const { 'x-svc-signature': _omit, ...unsigned } = headers;
  assert.deepEqual(check({ headers: unsigned }), { valid: false, reason: 'missing headers' });
  assert.deepEqual(check({ headers: { ...headers, 'x-svc-timestamp': '1.7e9' } }), { valid: false, reason: 'malformed timestamp' });
});

test('each try signs anew: another delivery id or time gives another signature over another body', () => {
  const first = signFailureEvent(SECRET, EVENT, DELIVERY, AT);
  const retry = signFailureEvent(SECRET, EVENT, '7b2f0f3e-2b7c-4d7e-9f55-1c2d3e4f5a6b', new Date(AT.getTime() + 5000));
  assert.notEqual(first.body, retry.body);
  assert.notEqual(first.headers['x-svc-signature'], retry.headers['x-svc-signature']);
  assert.equal(JSON.parse(first.body).audit.id, JSON.parse(retry.body).audit.id, 'receivers deduplicate on audit.id');
});
