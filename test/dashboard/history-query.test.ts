// The admin-wide reads behind the audit page and an origin's history: any key's audit by id, an
// origin's audits per pillar newest first in keyset pages, and its tickets open and resolved.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { findAnyAudit, findAudit, listOriginAudits, saveAudit } from '../../src/audit/audit-store.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { listOpenTickets, listTickets } from '../../src/report/tickets.ts';
import { newAudit } from '../support/audits.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => database.close());

test('findAnyAudit: any key’s audit, the same snapshot the key reads back; undefined for an unknown id', async () => {
  const db = database.db;
  const [one, two] = [await createApiKey(db, 'one'), await createApiKey(db, 'two')];
  const saved = await saveAudit(db, newAudit(two.id, 'https://any.example/page', 'privacy', { p1: 'fail/error', p2: 'pass' }));
  assert.deepEqual(await findAnyAudit(db, saved.id), await findAudit(db, two.id, saved.id));
  assert.equal((await findAnyAudit(db, saved.id))!.controls.length, 2);
  assert.equal(await findAudit(db, one.id, saved.id), undefined, 'the key-scoped read still refuses another key');
  assert.equal(await findAnyAudit(db, '00000000-0000-4000-8000-000000000000'), undefined);
});

test('listOriginAudits: one origin and pillar, every key, newest first, in keyset pages', async () => {
  const db = database.db;
  const [one, two] = [await createApiKey(db, 'one'), await createApiKey(db, 'two')];
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const key = i % 2 === 0 ? one : two;
    ids.push((await saveAudit(db, newAudit(key.id, `https://history.example/p${i}`, 'wcag', { '1.1.1': i < 3 ? 'fail/error' : 'pass' }))).id);
  }
  await saveAudit(db, newAudit(one.id, 'https://history.example/', 'privacy', { p1: 'pass' }));
  await saveAudit(db, newAudit(one.id, 'https://other.example/', 'wcag', { '1.1.1': 'pass' }));

  const first = await listOriginAudits(db, 'https://history.example', 'wcag', { limit: 3 });
  assert.deepEqual(first.audits.map((a) => a.id), ids.toReversed().slice(0, 3));
  assert.ok(first.next);
  const rest = await listOriginAudits(db, 'https://history.example', 'wcag', { limit: 3, after: first.next });
  assert.deepEqual(rest.audits.map((a) => a.id), ids.toReversed().slice(3));
  assert.equal(rest.next, null);
  const [newest] = first.audits;
  assert.deepEqual(newest!.totals, { errors: 0, warnings: 0, inconclusive: 0 });
  assert.equal(newest!.url, 'https://history.example/p4');
  assert.equal(newest!.standard, 'WCAG21AA');
  assert.deepEqual((await listOriginAudits(db, 'https://history.example', 'privacy', { limit: 10 })).audits.length, 1);
  assert.deepEqual((await listOriginAudits(db, 'https://history.example', 'ai-governance', { limit: 10 })).audits, []);
});

test('listTickets: open ones as listOpenTickets orders them; resolved ones the most recently resolved first, with their audits', async () => {
  const db = database.db;
  const key = await createApiKey(db, 'tickets');
  const origin = 'https://tickets.example';
  const a1 = await saveAudit(db, newAudit(key.id, `${origin}/`, 'privacy', { a: 'fail', b: 'fail/warning', c: 'fail' }));
  const a2 = await saveAudit(db, newAudit(key.id, `${origin}/`, 'privacy', { a: 'pass', b: 'fail/warning', c: 'fail' }));
  const a3 = await saveAudit(db, newAudit(key.id, `${origin}/`, 'privacy', { a: 'pass', b: 'pass', c: 'fail' }));

  const open = await listTickets(db, { status: 'open', origin, limit: 10 });
  assert.deepEqual(open.map((t) => [t.control, t.status, t.lastAuditId, t.failCount, t.resolvedAt]), [['c', 'open', a3.id, 3, null]]);
  assert.deepEqual(
    (await listOpenTickets(db, { origin, limit: 10 })).map((t) => t.control),
    open.map((t) => t.control),
  );
  const resolved = await listTickets(db, { status: 'resolved', origin, limit: 10 });
  assert.deepEqual(
    resolved.map((t) => [t.control, t.lastAuditId, t.resolvedByAuditId, t.resolvedAt?.getTime()]),
    [
      ['b', a2.id, a3.id, a3.createdAt.getTime()],
      ['a', a1.id, a2.id, a2.createdAt.getTime()],
    ],
  );
  assert.equal((await listTickets(db, { status: 'resolved', origin, limit: 1 })).length, 1);
  assert.deepEqual(await listTickets(db, { status: 'resolved', origin: 'https://none.example', limit: 10 }), []);
});
