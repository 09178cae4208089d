// The outbox rows saveAudit writes in the audit's transaction: which registrations get an event,
// and which failures each event carries (spec section 6), as a table of branch × severity ×
// finding mix. Registrations are inserted directly; no network is involved.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { findAudit, saveAudit, type NewAudit } from '../../src/audit/audit-store.ts';
import type { Branch } from '../../src/audit/control.ts';
import { totalsOf, type Finding } from '../../src/audit/findings.ts';
import { createApiKey, revokeApiKey } from '../../src/auth/api-keys.ts';
import { TRIGGER_BRANCHES, TRIGGER_SEVERITIES, type TriggerOn } from '../../src/alerts/matching.ts';
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

function newAudit(
  apiKeyId: string,
  branch: Branch,
  findings: Finding[],
  options: { url?: string; includeWarnings?: boolean; standard?: NewAudit['standard'] } = {},
): NewAudit {
  const url = options.url ?? 'https://example.com/page';
  const includeWarnings = options.includeWarnings ?? true;
  const kept = includeWarnings ? findings : findings.filter((f) => f.severity === 'error');
  return {
    apiKeyId,
    url: new URL(url),
    branch,
    standard: branch === 'wcag' ? (options.standard ?? 'WCAG21AA') : undefined,
    includeWarnings,
    crawled: stubCrawl(url),
    result: { controls: [], findings: kept, totals: totalsOf(kept) },
  };
}

async function addRegistration(apiKeyId: string, branch: string, severity: string, challenge: string | null = 'secret', on?: TriggerOn) {
  const id = randomUUID();
  await database.db
    .insertInto('webhooks')
    .values({
      id,
      api_key_id: apiKeyId,
      url: `https://hooks.example.com/${id}`,
      trigger_branch: branch,
      trigger_severity: severity,
      challenge,
      verified_at: new Date(),
      ...(on === undefined ? {} : { trigger_on: on }),
    })
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

// New-failures registrations (issue 19): an event only for matching failures the previous audit of
// the page did not have, compared by occurrence identity, with the counts in `changes`.
describe('new-failures registrations', () => {
  const img = (name: string) => ({ rule: 'image-name', selector: `main > img.${name}`, snippet: `<img src="/${name}.png">` });
  const alt = (...names: string[]): Finding => ({
    control: '1.1.1',
    status: 'fail',
    severity: 'error',
    evidence: `${names.length} failed (image-name ${names.length})`,
    occurrences: names.map(img),
    source: 'rules',
  });
  const button: Finding = { control: '4.1.2', status: 'fail', severity: 'error', evidence: 'button has no name', occurrences: [{ rule: 'button-name', selector: 'main > button', snippet: '<button></button>' }], source: 'rules' };
  const heading: Finding = { control: '2.4.6', status: 'fail', severity: 'warning', evidence: 'empty heading', occurrences: [{ rule: 'empty-heading', selector: 'h2', snippet: '<h2></h2>' }], source: 'rules' };

  /** A key with a new-failures registration per threshold and one every-audit registration. */
  async function keyWithRegistrations(branch = 'accessibility') {
    const { id: keyId } = await createApiKey(database.db, 'new-failures');
    const hooks = {
      medium: await addRegistration(keyId, branch, 'medium', 'secret', 'new-failures'),
      high: await addRegistration(keyId, branch, 'high', 'secret', 'new-failures'),
      critical: await addRegistration(keyId, branch, 'critical', 'secret', 'new-failures'),
      everyAudit: await addRegistration(keyId, branch, 'medium'),
    };
    return { keyId, hooks };
  }

  async function events(auditId: string) {
    const rows = await database.db.selectFrom('webhook_deliveries').select(['webhook_id', 'event']).where('audit_id', '=', auditId).execute();
    return new Map(rows.map((row) => [row.webhook_id, row.event as StoredEvent]));
  }

  test('the first audit of a page: every matching failure is new', async () => {
    const { keyId, hooks } = await keyWithRegistrations();
    const first = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a', 'c'), heading]));
    const sent = await events(first.id);
    assert.deepEqual(sent.get(hooks.medium)!.failures.map((f) => f.control), ['1.1.1', '2.4.6']);
    assert.deepEqual(sent.get(hooks.medium)!.changes, { againstAuditId: null, new: 3, fixed: 0, persisting: 0 });
    assert.deepEqual(sent.get(hooks.high)!.failures.map((f) => f.control), ['1.1.1']);
    assert.deepEqual(sent.get(hooks.high)!.changes, { againstAuditId: null, new: 2, fixed: 0, persisting: 0 });
    assert.ok(!sent.has(hooks.critical));
    assert.equal(sent.get(hooks.everyAudit)!.changes, undefined, 'an every-audit event is the spec’s');
  });

  const sequences: [name: string, before: Finding[], after: Finding[], expected: { medium?: [string[], number, number, number]; high?: [string[], number, number, number] }][] = [
    ['unchanged: nothing', [alt('a', 'c'), button, heading], [alt('a', 'c'), button, heading], {}],
    ['only fixed: nothing', [alt('a', 'c'), button], [alt('c')], {}],
    ['one new image under a persisting criterion: that finding only', [alt('c'), button, heading], [alt('a', 'c'), button, heading], { medium: [['1.1.1'], 1, 0, 3], high: [['1.1.1'], 1, 0, 2] }],
    ['a like-for-like swap: the finding with the new occurrence', [alt('a', 'c'), button], [alt('b', 'c'), button], { medium: [['1.1.1'], 1, 1, 2], high: [['1.1.1'], 1, 1, 2] }],
    ['a new warning: medium only', [alt('c')], [alt('c'), heading], { medium: [['2.4.6'], 1, 0, 1] }],
    ['a new criterion and a fixed one', [alt('c')], [button], { medium: [['4.1.2'], 1, 1, 0], high: [['4.1.2'], 1, 1, 0] }],
  ];
  for (const [name, before, after, expected] of sequences) {
    test(`the previous audit of the page decides: ${name}`, async () => {
      const { keyId, hooks } = await keyWithRegistrations();
      const previous = await saveAudit(database.db, newAudit(keyId, 'wcag', before));
      const current = await saveAudit(database.db, newAudit(keyId, 'wcag', after));
      const sent = await events(current.id);
      for (const severity of ['medium', 'high'] as const) {
        const event = sent.get(hooks[severity]);
        const want = expected[severity];
        if (want === undefined) {
          assert.equal(event, undefined, `${severity}: no event`);
          continue;
        }
        const [controls, added, fixed, persisting] = want;
        assert.deepEqual(event!.failures.map((f) => f.control), controls, severity);
        assert.deepEqual(event!.changes, { againstAuditId: previous.id, new: added, fixed, persisting }, severity);
        // The failures are the findings as every-audit events carry them.
        const all = sent.get(hooks.everyAudit)!.failures;
        for (const failure of event!.failures) assert.ok(all.some((f) => JSON.stringify(f) === JSON.stringify(failure)));
      }
      assert.ok(!sent.has(hooks.critical));
      assert.deepEqual(sent.get(hooks.everyAudit)!.failures.map((f) => f.control), after.map((f) => f.control), 'every-audit: every failure');
    });
  }

  test('fixed, then back: new again (against the audit that had it fixed)', async () => {
    const { keyId, hooks } = await keyWithRegistrations();
    await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a', 'c'), button]));
    const fixed = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('c'), button]));
    assert.equal((await events(fixed.id)).get(hooks.medium), undefined);
    const back = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a', 'c'), button]));
    const event = (await events(back.id)).get(hooks.medium)!;
    assert.deepEqual(event.failures.map((f) => f.control), ['1.1.1']);
    assert.deepEqual(event.changes, { againstAuditId: fixed.id, new: 1, fixed: 0, persisting: 2 });
  });

  test('a privacy finding is its own occurrence: back after a pass is new', async () => {
    const { keyId, hooks } = await keyWithRegistrations('privacy');
    await saveAudit(database.db, newAudit(keyId, 'privacy', [FAIL_ERROR, FAIL_WARNING]));
    const same = await saveAudit(database.db, newAudit(keyId, 'privacy', [FAIL_ERROR, FAIL_WARNING]));
    assert.equal((await events(same.id)).get(hooks.medium), undefined);
    const passed = await saveAudit(database.db, newAudit(keyId, 'privacy', [FAIL_WARNING]));
    const back = await saveAudit(database.db, newAudit(keyId, 'privacy', [FAIL_ERROR, FAIL_WARNING, INCONCLUSIVE]));
    const sent = await events(back.id);
    assert.deepEqual(sent.get(hooks.high)!.failures.map((f) => f.control), ['x.error']);
    assert.deepEqual(sent.get(hooks.high)!.changes, { againstAuditId: passed.id, new: 1, fixed: 0, persisting: 0 });
    assert.deepEqual(sent.get(hooks.medium)!.changes, { againstAuditId: passed.id, new: 1, fixed: 0, persisting: 1 });
  });

  test('the previous audit is of the same page: another URL or standard is not compared with', async () => {
    const { keyId, hooks } = await keyWithRegistrations();
    await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a')], { url: 'https://example.com/other' }));
    await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a')], { standard: 'WCAG22AA' }));
    const first = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a')]));
    assert.deepEqual((await events(first.id)).get(hooks.medium)!.changes, { againstAuditId: null, new: 1, fixed: 0, persisting: 0 });
    // Nor is another key's audit of the same URL.
    const { id: otherKey } = await createApiKey(database.db, 'other');
    await saveAudit(database.db, newAudit(otherKey, 'wcag', [alt('a')]));
    const second = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a')]));
    assert.equal((await events(second.id)).get(hooks.medium), undefined, 'compared with its own key’s audit');
  });

  test('either audit without its warnings: a warning is never new', async () => {
    const { keyId, hooks } = await keyWithRegistrations();
    await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('c'), heading], { includeWarnings: false }));
    const withWarnings = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('c'), heading]));
    assert.equal((await events(withWarnings.id)).get(hooks.medium), undefined, 'the heading was not recorded before: not new');
    const errorsOnly = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a', 'c'), heading], { includeWarnings: false }));
    assert.deepEqual((await events(errorsOnly.id)).get(hooks.medium)!.changes, { againstAuditId: withWarnings.id, new: 1, fixed: 0, persisting: 1 });
  });

  test('a previous audit without stored identities (before migration 0013) is compared from its findings', async () => {
    const { keyId, hooks } = await keyWithRegistrations();
    const legacy = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a', 'c'), button]));
    await database.db.deleteFrom('audit_identities').where('audit_id', '=', legacy.id).execute();
    const same = await saveAudit(database.db, newAudit(keyId, 'wcag', [alt('a', 'c'), button]));
    assert.equal((await events(same.id)).get(hooks.medium), undefined);
    const stored = await database.db.selectFrom('audit_identities').select('occurrences').where('audit_id', '=', same.id).executeTakeFirstOrThrow();
    assert.equal(stored.occurrences.length, 3);
  });

  test('every-audit events are the same whether or not the key also has new-failures registrations', async () => {
    const plain = await createApiKey(database.db, 'every-audit only');
    const plainHook = await addRegistration(plain.id, 'accessibility', 'medium');
    const mixed = await keyWithRegistrations();
    const findings = [alt('a', 'c'), button, heading];
    const [one, two] = [await saveAudit(database.db, newAudit(plain.id, 'wcag', findings)), await saveAudit(database.db, newAudit(mixed.keyId, 'wcag', findings))];
    const strip = (event: StoredEvent) => ({ ...event, audit: { ...event.audit, id: '', createdAt: '' } });
    assert.deepEqual(strip((await events(two.id)).get(mixed.hooks.everyAudit)!), strip((await events(one.id)).get(plainHook)!));
  });
});
