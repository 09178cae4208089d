// What a report is made of: the target normalised to one HTTPS origin (a table of equivalent
// spellings and of refusals, with near-misses), and the selection of the newest audit per pillar
// with its open tickets ranked and counted per pillar.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { saveAudit } from '../../src/audit/audit-store.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { parseReportTarget, selectReport } from '../../src/report/snapshots.ts';
import { newAudit } from '../support/audits.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';

describe('parseReportTarget', () => {
  const VALID: Array<[query: { domain?: string; url?: string }, origin: string, host: string]> = [
    [{ domain: 'example.com' }, 'https://example.com', 'example.com'],
    [{ url: 'https://example.com/path?q' }, 'https://example.com', 'example.com'],
    [{ url: 'HTTPS://Example.com:443' }, 'https://example.com', 'example.com'],
    [{ domain: 'Example.COM:443/' }, 'https://example.com', 'example.com'],
    [{ domain: 'example.com:' }, 'https://example.com', 'example.com'],
    [{ url: 'example.com' }, 'https://example.com', 'example.com'],
    [{ url: 'https:example.com' }, 'https://example.com', 'example.com'],
    [{ url: ' https://example.com/ \n' }, 'https://example.com', 'example.com'],
    [{ url: 'https://example.com#top' }, 'https://example.com', 'example.com'],
    [{ domain: 'example.com:8443' }, 'https://example.com:8443', 'example.com'],
    [{ domain: 'localhost:8443/x' }, 'https://localhost:8443', 'localhost'],
    [{ domain: 'bücher.example' }, 'https://xn--bcher-kva.example', 'xn--bcher-kva.example'],
    [{ domain: '192.0.2.7' }, 'https://192.0.2.7', '192.0.2.7'],
    [{ url: 'https://[2001:DB8::1]:443/' }, 'https://[2001:db8::1]', '[2001:db8::1]'],
    [{ domain: 'sub.example.co.uk', url: undefined }, 'https://sub.example.co.uk', 'sub.example.co.uk'],
    // The WHATWG URL parser's reading, as browsers have it: extra slashes after https: are skipped.
    [{ url: 'https:///host.example/path' }, 'https://host.example', 'host.example'],
  ];
  for (const [query, origin, host] of VALID) {
    test(`${JSON.stringify(query)} → ${origin}`, () => {
      assert.deepEqual(parseReportTarget(query), { ok: true, origin, host });
    });
  }

  const INVALID: Array<[query: { domain?: string; url?: string }, field: 'domain' | 'url']> = [
    [{}, 'domain'],
    [{ domain: 'example.com', url: 'https://example.com' }, 'url'],
    [{ domain: '', url: '' }, 'url'],
    [{ domain: '' }, 'domain'],
    [{ url: ' \t ' }, 'url'],
    [{ domain: 'http://example.com' }, 'domain'],
    [{ url: 'HTTP://example.com' }, 'url'],
    [{ url: 'wss://example.com' }, 'url'],
    [{ url: 'javascript:alert(1)' }, 'url'],
    [{ url: 'data:text/html,hi' }, 'url'],
    [{ domain: 'mailto:a@example.com' }, 'domain'],
    [{ url: 'https://' }, 'url'],
    [{ url: 'https://user:pass@example.com' }, 'url'],
    [{ url: 'https://user@example.com' }, 'url'],
    [{ domain: 'exa mple.com' }, 'domain'],
    [{ domain: 'example.com:65536' }, 'domain'],
    [{ domain: 'example.com:port' }, 'domain'],
    [{ url: 'https://[::1' }, 'url'],
    [{ domain: '%' }, 'domain'],
  ];
  for (const [query, field] of INVALID) {
    test(`${JSON.stringify(query)} → refused, naming ${field}`, () => {
      const target = parseReportTarget(query);
      assert.equal(target.ok, false);
      assert.deepEqual(Object.keys(!target.ok ? target.errors : {}), [field]);
    });
  }
});

describe('selectReport', () => {
  let database: TestDatabase;
  let keyId: string;
  before(async () => {
    database = await openTestDatabase();
    keyId = (await createApiKey(database.db, 'snapshots')).id;
  });
  after(async () => {
    await database.close();
  });

  test('missing pillars in the order wcag, privacy, ai-governance', async () => {
    const origin = `https://${randomUUID().slice(0, 8)}.test`;
    assert.deepEqual(await selectReport(database.db, { origin, host: 'x' }), { ok: false, missing: ['wcag', 'privacy', 'ai-governance'] });
    await saveAudit(database.db, newAudit(keyId, `${origin}/`, 'privacy', {}));
    assert.deepEqual(await selectReport(database.db, { origin, host: 'x' }), { ok: false, missing: ['wcag', 'ai-governance'] });
  });

  test('the newest audit per pillar, its totals and standard, tickets ranked and counted per pillar', async () => {
    const origin = `https://${randomUUID().slice(0, 8)}.test`;
    await saveAudit(database.db, newAudit(keyId, `${origin}/old`, 'wcag', { '1.1.1': 'fail' }));
    const wcag = await saveAudit(database.db, newAudit(keyId, `${origin}/new`, 'wcag', { '2.4.2': 'fail/warning', '1.4.3': 'fail', '3.1.1': 'fail', '1.3.1': 'inconclusive' }));
    const privacy = await saveAudit(database.db, newAudit(keyId, `${origin}/`, 'privacy', { p: 'pass' }, { includeWarnings: false }));
    await saveAudit(database.db, newAudit(keyId, `${origin}/ai`, 'ai-governance', { a: 'fail/warning' }));
    const selection = await selectReport(database.db, { origin, host: 'h' });
    assert.ok(selection.ok);
    const { pillars } = selection.report;
    assert.equal(pillars.wcag.auditId, wcag.id);
    assert.equal(pillars.wcag.url, `${origin}/new`);
    assert.equal(pillars.wcag.standard, 'WCAG21AA');
    assert.deepEqual(pillars.wcag.totals, { errors: 2, warnings: 2, inconclusive: 1 });
    assert.equal(pillars.wcag.createdAt.getTime(), wcag.createdAt.getTime());
    assert.deepEqual(pillars.wcag.openTickets.map((t) => [t.control, t.severity]), [['1.4.3', 'error'], ['3.1.1', 'error']]);
    assert.equal(pillars.wcag.openTicketCount, 3);
    assert.equal(pillars.privacy.auditId, privacy.id);
    assert.equal(pillars.privacy.includeWarnings, false);
    assert.deepEqual(pillars.privacy.openTickets, []);
    assert.equal(pillars.privacy.openTicketCount, 0);
    assert.deepEqual(pillars['ai-governance'].openTickets.map((t) => [t.control, t.severity, t.branch, t.origin]), [['a', 'warning', 'ai-governance', origin]]);
  });
});
