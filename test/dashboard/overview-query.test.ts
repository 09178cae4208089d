// latestAuditsByOrigin, the overview's admin-wide read of the audits: the most recently audited
// origins first, each with only the newest audit of each pillar, whichever key ran it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { latestAuditsByOrigin, saveAudit } from '../../src/audit/audit-store.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { newAudit } from '../support/audits.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => database.close());

test('newest audit per origin and pillar, origins by their latest audit, across keys, limited', async () => {
  const db = database.db;
  const [one, two] = [await createApiKey(db, 'one'), await createApiKey(db, 'two')];
  const save = (key: { id: string }, url: string, branch: 'wcag' | 'privacy' | 'ai-governance', outcomes: Record<string, 'pass' | 'fail/error' | 'fail/warning' | 'inconclusive'>) =>
    saveAudit(db, newAudit(key.id, url, branch, outcomes));
  await save(one, 'https://a.example/', 'privacy', { p1: 'fail/error', p2: 'fail/error' });
  await save(one, 'https://b.example/', 'wcag', { '1.1.1': 'fail/error' });
  const newestPrivacy = await save(two, 'https://a.example/later', 'privacy', { p1: 'fail/warning', p2: 'inconclusive' });
  const governance = await save(one, 'https://a.example/ai', 'ai-governance', { g1: 'pass' });
  await save(two, 'https://c.example/', 'privacy', { p1: 'pass' });

  const overview = await latestAuditsByOrigin(db, 10);
  assert.deepEqual(overview.map((o) => o.origin), ['https://c.example', 'https://a.example', 'https://b.example']);
  const a = overview[1]!;
  assert.deepEqual(Object.keys(a.latest).sort(), ['ai-governance', 'privacy']);
  assert.equal(a.latest.privacy!.id, newestPrivacy.id, 'the newer privacy audit, by another key');
  assert.deepEqual(a.latest.privacy!.totals, { errors: 0, warnings: 2, inconclusive: 1 });
  assert.equal(a.latest.privacy!.url, 'https://a.example/later');
  assert.equal(a.latest['ai-governance']!.id, governance.id);
  assert.equal(a.latest.wcag, undefined);
  assert.equal(overview[2]!.latest.wcag!.standard, 'WCAG21AA');
  assert.equal(a.lastAuditedAt.getTime(), governance.createdAt.getTime());

  // The limit counts origins, not audits: the two most recent origins, with all their pillars.
  const limited = await latestAuditsByOrigin(db, 2);
  assert.deepEqual(limited.map((o) => o.origin), ['https://c.example', 'https://a.example']);
  assert.equal(Object.keys(limited[1]!.latest).length, 2);
  assert.deepEqual(await latestAuditsByOrigin(db, 0), []);
});
