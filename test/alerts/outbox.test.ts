// The outbox rows saveAudit writes in the audit's transaction: which registrations get an event,
// and which failures each event carries (spec section 6), as a table of branch × severity ×
// finding mix. Registrations are inserted directly; no network is involved.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { findAudit, saveAudit, type NewAudit } from '../../src/audit/audit-store.ts';
import type { Branch } from '../../src/audit/control.ts';
import { totalsOf, type Finding } from '../../src/audit/findings.ts';
import { createApiKey, revokeApiKey } from '../../src/auth/api-keys.ts';
import { TRIGGER_BRANCHES, TRIGGER_SEVERITIES } from '../../src/alerts/matching.ts';
import type { StoredEvent } from '../../src/alerts/signing.ts';
import { stubCrawl } from '../support/audits.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

const FAIL_ERROR: Finding = { control: 'x.error', status: 'fail', severity: 'error', evidence: 'an error', location: { selector: 'main', snippet: '<main>' } };
const FAIL_WARNING: Finding = { control: 'x.warning', status: 'fail', severity: 'warning', evidence: 'a warning' };
const INCONCLUSIVE: Finding = { control: 'x.unsure', status: 'inconclusive', severity: 'warning', evidence: 'cannot tell' };

const MIXES: Record<string, Finding[]> = {
  none: [],
  'inconclusive only': [INCONCLUSIVE],
  'fail warning': [FAIL_WARNING, INCONCLUSIVE],
  'fail error': [FAIL_ERROR],
  'fail error and warning': [INCONCLUSIVE, FAIL_ERROR, FAIL_WARNING],
};

const MAPPED: Record<Branch, string> = { wcag: 'accessibility', 'ai-governance': 'ai_gov', privacy: 'privacy' };

/** The spec's rule, written out independently of src/alerts/matching.ts. */
function expectedFailures(mix: Finding[], severity: string): string[] {
  return mix
    .filter((f) => f.status === 'fail')
    .filter((f) => (severity === 'medium' ? true : severity === 'high' ? f.severity === 'error' : false))
    .map((f) => f.control);
}

function newAudit(apiKeyId: string, branch: Branch, findings: Finding[]): NewAudit {
  return {
    apiKeyId,
    url: new URL('https://example.com/page'),
    branch,
    standard: branch === 'wcag' ? 'WCAG21AA' : undefined,
    includeWarnings: true,
    crawled: stubCrawl('https://example.com/page'),
    result: { controls: [], findings, totals: totalsOf(findings) },
  };
}

async function addRegistration(apiKeyId: string, branch: string, severity: string, challenge: string | null = 'secret') {
  const id = randomUUID();
  await database.db
    .insertInto('webhooks')
    .values({ id, api_key_id: apiKeyId, url: `https://hooks.example.com/${id}`, trigger_branch: branch, trigger_severity: severity, challenge, verified_at: new Date() })
    .execute();
  return id;
}

for (const branch of ['wcag', 'ai-governance', 'privacy'] as const) {
  for (const [mixName, mix] of Object.entries(MIXES)) {
    test(`${branch} audit with ${mixName}: one delivery per matching registration, each with only its threshold's failures`, async () => {
      const { id: keyId } = await createApiKey(database.db, 'outbox');
      const { id: otherKey } = await createApiKey(database.db, 'other');
      // Every trigger combination for this key; the other key registers the same branch at medium.
      const registrations = new Map<string, { branch: string; severity: string }>();
      for (const b of TRIGGER_BRANCHES) {
        for (const s of TRIGGER_SEVERITIES) registrations.set(await addRegistration(keyId, b, s), { branch: b, severity: s });
      }
      const foreign = await addRegistration(otherKey, MAPPED[branch], 'medium');

      let notified = 0;
      const snapshot = await saveAudit(database.db, newAudit(keyId, branch, mix), { onEventsQueued: (n) => (notified += n) });

      const rows = await database.db.selectFrom('webhook_deliveries').selectAll().where('audit_id', '=', snapshot.id).execute();
      const expected = [...registrations]
        .filter(([, t]) => t.branch === MAPPED[branch] && expectedFailures(mix, t.severity).length > 0)
        .map(([id]) => id)
        .sort();
      assert.deepEqual(rows.map((r) => r.webhook_id).sort(), expected);
      assert.ok(!rows.some((r) => r.webhook_id === foreign), 'another key’s registration gets nothing');
      assert.equal(notified, expected.length, 'the worker is woken only when something was queued');
      for (const row of rows) {
        const trigger = registrations.get(row.webhook_id)!;
        const event = row.event as StoredEvent;
        assert.equal(row.state, 'pending');
        assert.equal(row.attempts, 0);
        assert.deepEqual(event.failures.map((f) => f.control), expectedFailures(mix, trigger.severity));
        for (const failure of event.failures) assert.deepEqual(Object.keys(failure).sort(), ['control', 'evidence', 'severity', 'status']);
        assert.deepEqual(event.audit, {
          id: snapshot.id,
          url: 'https://example.com/page',
          branch: MAPPED[branch],
          createdAt: snapshot.createdAt.toISOString(),
          totals: { errors: snapshot.totals.errors, warnings: snapshot.totals.warnings },
        });
      }
      // saveAudit's own result is unchanged by the outbox.
      assert.deepEqual(await findAudit(database.db, keyId, snapshot.id), snapshot);
    });
  }
}

test('a legacy registration (no challenge) is queued like any other: the worker records its failure', async () => {
  const { id: keyId } = await createApiKey(database.db, 'legacy');
  const legacy = await addRegistration(keyId, 'privacy', 'high', null);
  const snapshot = await saveAudit(database.db, newAudit(keyId, 'privacy', [FAIL_ERROR]));
  const rows = await database.db.selectFrom('webhook_deliveries').select('webhook_id').where('audit_id', '=', snapshot.id).execute();
  assert.deepEqual(rows, [{ webhook_id: legacy }]);
});

test('an audit that finishes after its key was revoked is stored but queues nothing (revocation already failed what was pending)', async () => {
  const { id: keyId } = await createApiKey(database.db, 'revoked mid-audit');
  await addRegistration(keyId, 'privacy', 'medium');
  await revokeApiKey(database.db, keyId);
  const snapshot = await saveAudit(database.db, newAudit(keyId, 'privacy', [FAIL_ERROR]));
  const rows = await database.db.selectFrom('webhook_deliveries').select('id').where('audit_id', '=', snapshot.id).execute();
  assert.deepEqual(rows, []);
  assert.equal((await database.db.selectFrom('audits').select('id').where('id', '=', snapshot.id).execute()).length, 1, 'the audit is stored');
});

test('the outbox rows roll back with the audit', async () => {
  const { id: keyId } = await createApiKey(database.db, 'rollback');
  await addRegistration(keyId, 'privacy', 'medium');
  const before = await database.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  // A finding the findings table refuses (NULL evidence) fails the transaction after the audit row.
  const broken = newAudit(keyId, 'privacy', [{ ...FAIL_ERROR, evidence: null as unknown as string }]);
  await assert.rejects(saveAudit(database.db, broken));
  const afterCount = await database.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(afterCount.n), Number(before.n));
  assert.equal((await database.db.selectFrom('audits').select('id').where('api_key_id', '=', keyId).execute()).length, 0);
});
