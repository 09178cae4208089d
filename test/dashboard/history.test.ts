// The audit page and an origin's history through the real HTTP stack: a WCAG history of a page that
// gets better (real audits of a fixture page, one carrying markup in an attribute), every figure
// checked against the stored audits, markup shown as text, the chart as inline SVG with no style
// attribute, the tickets opened and resolved, the links between the pages, and the 400 and 404 pages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { findAnyAudit, saveAudit } from '../../src/audit/audit-store.ts';
import { createAdminCookie, type TestAdmin } from '../support/admin.ts';
import { newAudit } from '../support/audits.ts';
import { usingPostgres } from '../support/db.ts';
import { auditHistory, IMPROVING_ISSUES, startDashboardFixture, type DashboardFixture } from './support.ts';

let fx: DashboardFixture;
let admin: TestAdmin;
/** The WCAG audits of other.test's improving page, oldest first. */
let wcag: string[];
let origin: string;

/** How many issues are fixed at each audit: better, a relapse, then all fixed. */
const STEPS = [0, 0, 1, 2, 1, 3, 4, IMPROVING_ISSUES];

before(async () => {
  fx = await startDashboardFixture();
  admin = await createAdminCookie(fx.database.db);
  wcag = await auditHistory(fx, fx.owner.rawKey, 'other.test', STEPS);
  origin = new URL(fx.service.fixture.url('other.test', '/')).origin;
});
after(async () => {
  assert.deepEqual(fx.service.logs.filter((line) => Number(line.level) >= 50), [], 'no page failed');
  await fx?.close();
});

const get = (url: string, cookie = admin.cookie) => fx.service.app.inject({ method: 'GET', url, headers: { cookie } });
const main = (body: string) => body.slice(body.indexOf('<main'), body.indexOf('</main>'));
/** Text as Eta escapes it. */
const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
const historyHref = () => `/dashboard/origins/${encodeURIComponent(origin)}`;

describe('an audit’s page', () => {
  test('its facts, every finding with severity, status, evidence and elements, the markup of each as text', async () => {
    const res = await get(`/dashboard/audits/${wcag[0]}`);
    assert.equal(res.statusCode, 200);
    const body = main(res.body);
    const stored = (await findAnyAudit(fx.database.db, wcag[0]!))!;
    assert.match(res.body, /<title>Accessibility \(WCAG\) audit of https:\/\/other\.test:\d+\/improving · Audit service admin<\/title>/);
    assert.ok(body.includes(`<dt>URL</dt>\n<dd>${stored.url}</dd>`));
    assert.ok(body.includes(`<dt>Final URL</dt>\n<dd>${stored.finalUrl}</dd>`));
    assert.ok(body.includes('<dt>Standard</dt>\n<dd>WCAG21AA</dd>'));
    const { errors, warnings, inconclusive } = stored.totals;
    assert.ok(body.includes(`<dd>${errors} errors, ${warnings} warning${warnings === 1 ? '' : 's'} (${inconclusive} inconclusive)</dd>`));
    assert.ok(body.includes(`<time datetime="${stored.createdAt.toISOString()}">`));
    assert.ok(body.includes(`<a href="${historyHref()}">History of ${origin}</a>`), 'links the origin’s history');

    assert.ok(stored.findings.length >= 5, 'the first audit fails every issue');
    const findings = body.slice(body.indexOf('id="findings"'));
    for (const finding of stored.findings) {
      const at = findings.indexOf(`<code>${finding.control}</code>`);
      assert.ok(at > 0, finding.control);
      const section = findings.slice(at, findings.indexOf('</section>', at));
      assert.ok(section.includes(`<span class="tag tag-${finding.severity}">${finding.severity}</span> <span class="tag tag-${finding.status}">${finding.status}</span>`), finding.control);
      assert.ok(section.includes(escaped(finding.evidence)), `${finding.control}: evidence`);
      for (const occurrence of finding.occurrences ?? []) {
        assert.ok(section.includes(`<code>${escaped(occurrence.selector)}</code>`), `${finding.control}: selector`);
        assert.ok(section.includes(`<pre><code>${escaped(occurrence.snippet)}</code></pre>`), `${finding.control}: snippet`);
      }
    }
    // The image's markup carries a script tag in an attribute: shown as code text, never as markup.
    const image = stored.findings.find((finding) => finding.control === '1.1.1')!.occurrences![0]!;
    assert.ok(image.snippet.includes('<script>alert(&quot;x&quot;)</script>'));
    assert.ok(body.includes('data-note=&quot;&lt;script&gt;alert(&amp;quot;x&amp;quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;'));
    assert.equal(res.body.includes('<script'), false, 'no markup from data anywhere');
    assert.equal(res.body.includes('<img'), false);
  });

  test('every checked control with its outcome and evidence: what passed and why', async () => {
    const stored = (await findAnyAudit(fx.database.db, wcag.at(-1)!))!;
    assert.deepEqual(stored.totals, { errors: 0, warnings: 3, inconclusive: 3 }, 'every issue fixed');
    const body = main((await get(`/dashboard/audits/${stored.id}`)).body);
    const rows = [...body.slice(body.indexOf('id="controls"')).matchAll(/<th scope="row"><code>([^<]+)<\/code><br><span class="requirement">[^<]*<\/span><\/th>\s*<td><span class="tag tag-(\w+)">\2<\/span>/g)];
    assert.deepEqual(
      rows.map((row) => `${row[1]} ${row[2]}`),
      stored.controls.map((control) => `${control.control} ${control.outcome}`),
      'every control, in the audit’s order',
    );
    const passed = stored.controls.filter((control) => control.outcome === 'pass');
    assert.ok(passed.length > 0);
    for (const control of passed) assert.ok(body.includes(`<td class="label">${escaped(control.evidence)}</td>`), control.control);
    // WCAG requirements start with their number: the page shows the number once.
    assert.match(body, /<code>2\.4\.2<\/code><br><span class="requirement">Page Titled \(WCAG 2\.1 Level A\)<\/span>/);
  });

  test('changes: the first audit says so; an unchanged page has nothing new; a fix is listed as fixed; a relapse as new and back after a fix', async () => {
    const changes = async (id: string) => {
      const body = main((await get(`/dashboard/audits/${id}`)).body);
      return body.slice(body.indexOf('id="changes"'), body.indexOf('id="findings"'));
    };
    assert.match(await changes(wcag[0]!), /This is the first audit of this page/);
    const unchanged = await changes(wcag[1]!);
    assert.match(unchanged, new RegExp(`Compared with <a href="/dashboard/audits/${wcag[0]}">the audit of <time`));
    assert.match(unchanged, /: 0 new \(0 of them back after a fix\), 0 fixed, \d+ persisting\./);
    assert.equal(unchanged.includes('<caption>'), false, 'no list');
    // STEPS: the third audit fixes the first issue (the image whose markup holds a script tag) and gives the page its title.
    const fixed = await changes(wcag[2]!);
    assert.match(fixed, /: 0 new \(0 of them back after a fix\), 2 fixed, /);
    assert.match(fixed, /<caption>Fixed<\/caption>/);
    assert.ok(fixed.includes('&lt;img src=&quot;/team.jpg&quot;'), 'the fixed element’s markup, as text');
    // The fifth audit brings back the second issue and the missing lang, both fixed by the fourth.
    const relapse = await changes(wcag[4]!);
    assert.match(relapse, /: 2 new \(2 of them back after a fix\), 0 fixed, /);
    assert.match(relapse, /<caption>Back after a fix \(also new\)<\/caption>/);
    assert.match(relapse, new RegExp(`<a href="/dashboard/audits/${wcag[0]}"><time`), 'both first failed in the first audit, before their fix');
  });

  test('a privacy audit: its controls and findings, no standard; its changes section', async () => {
    const { id } = await fx.database.db.selectFrom('audits').select('id').where('branch', '=', 'privacy').where('origin', '=', origin).executeTakeFirstOrThrow();
    const res = await get(`/dashboard/audits/${id}`);
    assert.equal(res.statusCode, 200);
    const body = main(res.body);
    assert.match(body, /<h1>Privacy audit<\/h1>/);
    assert.equal(body.includes('<dt>Standard</dt>'), false);
    const stored = (await findAnyAudit(fx.database.db, id))!;
    for (const control of stored.controls) assert.ok(body.includes(`<code>${control.control}</code>`), control.control);
    for (const finding of stored.findings) assert.ok(body.includes(escaped(finding.evidence)), finding.control);
    assert.ok(body.includes('id="changes"'), 'every audit has its comparison');
  });

  test('an unknown or malformed id is a 404 page', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '%3Cscript%3E', 'x'.repeat(100)]) {
      const res = await get(`/dashboard/audits/${id}`);
      assert.equal(res.statusCode, 404, id);
      assert.match(main(res.body), /<h1>Audit not found<\/h1>/);
      assert.equal(res.body.includes('<script>'), false);
    }
  });
});

describe('an origin’s history', () => {
  test('per pillar, a table of the audits newest first with their figures, each linking its audit', async () => {
    const res = await get(historyHref());
    assert.equal(res.statusCode, 200);
    const body = main(res.body);
    assert.ok(body.includes(`<h1>History of ${origin}</h1>`));
    assert.ok(body.includes('the newest 100 of each (older ones are not shown)'), 'says how much it shows');
    const section = (id: string) => body.slice(body.indexOf(`id="pillar-${id}"`), body.indexOf('</section>', body.indexOf(`id="pillar-${id}"`)));
    const rows = (id: string) =>
      [...section(id).matchAll(/<th scope="row"><a href="\/dashboard\/audits\/([0-9a-f-]{36})"><time datetime="[^"]+">[^<]+<\/time><\/a><\/th>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>\s*<td>(\d+)<\/td>/g)].map((row) => ({
        id: row[1]!,
        totals: { errors: Number(row[2]), warnings: Number(row[3]), inconclusive: Number(row[4]) },
      }));
    const stored = async (branch: string) =>
      (await fx.database.db.selectFrom('audits').select(['id', 'errors', 'warnings', 'inconclusive']).where('origin', '=', origin).where('branch', '=', branch).orderBy('created_at', 'desc').execute()).map(
        (row) => ({ id: row.id, totals: { errors: row.errors, warnings: row.warnings, inconclusive: row.inconclusive } }),
      );
    assert.deepEqual(rows('wcag').map((row) => row.id), wcag.toReversed(), 'WCAG: newest first');
    assert.deepEqual(rows('wcag'), await stored('wcag'));
    assert.deepEqual(rows('privacy'), await stored('privacy'));
    assert.equal(rows('privacy').length, 3);
    assert.ok(section('ai-governance').includes('<p>No AI governance audit of this origin.</p>'));
    assert.equal(section('ai-governance').includes('<svg'), false);
    // The errors fall as the issues are fixed, and rise again with the relapse.
    assert.deepEqual(rows('wcag').toReversed().map((row) => row.totals.errors), [6, 6, 4, 3, 4, 2, 1, 0]);
  });

  test('the chart: inline SVG named by its title and description, one marker per audit, styled without style attributes', async () => {
    const res = await get(historyHref());
    const body = main(res.body);
    const svg = body.slice(body.indexOf('<svg class="chart"'), body.indexOf('</svg>') + 6);
    assert.match(svg, /^<svg class="chart" role="img" aria-labelledby="chart-wcag-title chart-wcag-desc" viewBox="0 0 \d+ \d+"/);
    assert.match(svg, /<title id="chart-wcag-title">Accessibility \(WCAG\): errors and warnings per audit of https:\/\/other\.test:\d+<\/title>/);
    const description = /<desc id="chart-wcag-desc">([^<]+)<\/desc>/.exec(svg)![1]!;
    assert.match(description, /^8 audits, oldest on the left, one step per audit, from .+ UTC to .+ UTC\. Errors \(solid line, circles\): from 6 in the first to 0 in the newest, at most 6\. Warnings \(dashed line, squares\): .+\. The table beside the chart has every figure\.$/);
    // One circle (errors) and one square (warnings) per audit, and one of each in the legend.
    assert.equal([...svg.matchAll(/<circle /g)].length, STEPS.length + 1);
    assert.equal([...svg.matchAll(/<rect /g)].length, STEPS.length + 1);
    const errorLine = /<polyline points="([^"]+)" fill="none" stroke="#9e1c13"/.exec(svg)![1]!.split(' ').map((point) => point.split(',').map(Number));
    assert.equal(errorLine.length, STEPS.length);
    const xs = errorLine.map(([x]) => x!);
    assert.deepEqual(xs, [...xs].sort((a, b) => a - b), 'oldest on the left');
    // The newest audit has no error: its point lies on the zero line, the lowest of all.
    assert.equal(errorLine.at(-1)![1], Math.max(...errorLine.map(([, y]) => y!)));
    assert.equal(/\sstyle=/.test(body), false, 'no style attribute: the CSP admits none');
    assert.equal(res.body.includes('<script'), false);
  });

  test('the tickets: open ones, and resolved ones with the audits that last failed and resolved them', async () => {
    const body = main((await get(historyHref())).body);
    const tickets = await fx.database.db.selectFrom('remediation_tickets').selectAll().where('origin', '=', origin).execute();
    const open = tickets.filter((t) => t.status === 'open');
    const resolved = tickets.filter((t) => t.status === 'resolved');
    assert.ok(open.length > 0 && resolved.length > 0, 'the history both opened and resolved tickets');
    const table = (id: string) => body.slice(body.indexOf(`id="${id}"`), body.indexOf('</table>', body.indexOf(`id="${id}"`)));
    const controls = (html: string) => [...html.matchAll(/<th scope="row"><code>([^<]+)<\/code>/g)].map((m) => m[1]).sort();
    assert.deepEqual(controls(table('tickets-open')), open.map((t) => t.control).sort());
    assert.deepEqual(controls(table('tickets-resolved')), resolved.map((t) => t.control).sort());
    for (const ticket of open) assert.ok(table('tickets-open').includes(`<a href="/dashboard/audits/${ticket.last_audit_id}">`), ticket.control);
    for (const ticket of resolved) {
      assert.ok(table('tickets-resolved').includes(`<a href="/dashboard/audits/${ticket.last_audit_id}">`), `${ticket.control}: last failed`);
      assert.ok(table('tickets-resolved').includes(`<a href="/dashboard/audits/${ticket.resolved_by_audit_id}">`), `${ticket.control}: resolved by`);
    }
    // 3.1.1 failed, was fixed, failed again with the relapse and was fixed again: two resolved tickets.
    assert.equal(resolved.filter((t) => t.control === '3.1.1').length, 2);
  });

  test('more audits than it shows: the newest 100, and the page says so', async () => {
    const busy = 'https://busy.example';
    for (let i = 0; i < 101; i++) await saveAudit(fx.database.db, newAudit(fx.owner.id, `${busy}/`, 'privacy', { a: i % 2 === 0 ? 'fail' : 'pass' }));
    const body = main((await get(`/dashboard/origins/${encodeURIComponent(busy)}`)).body);
    assert.ok(body.includes('<p class="notice">This pillar has more than 100 audits: the newest 100 are shown.</p>'));
    const privacy = body.slice(body.indexOf('id="pillar-privacy"'), body.indexOf('</section>', body.indexOf('id="pillar-privacy"')));
    assert.equal([...privacy.matchAll(/<th scope="row"><a href="\/dashboard\/audits\//g)].length, 100, 'table rows');
    assert.equal([...privacy.matchAll(/<circle /g)].length, 100 + 1, 'chart points and the legend’s');
    assert.match(privacy, /<desc id="chart-privacy-desc">100 audits, /);
  });

  test('not an https origin: a 400 page; an origin without audits: a 404 page', async () => {
    const refused = [`http://${new URL(origin).host}`, `${origin}/`, `${origin}/improving`, origin.toUpperCase(), 'example.com', 'https://user@example.com', '<script>', `https://${'x'.repeat(300)}.example`];
    for (const value of refused) {
      for (const url of [`/dashboard/origins/${encodeURIComponent(value)}`, `/dashboard/origins/${value}`]) {
        const res = await get(url);
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.body.includes('<script>'), false);
      }
    }
    // A long host name fits (the router's parameters stop at 100 characters), and so does an unencoded origin.
    const long = `https://${'h'.repeat(200)}.example`;
    assert.equal((await get(`/dashboard/origins/${encodeURIComponent(long)}`)).statusCode, 404);
    assert.equal((await get(`/dashboard/origins/${origin}`)).statusCode, 200);
    assert.match(main((await get(`/dashboard/origins/${encodeURIComponent('http://x.example')}`)).body), /This is not an https origin/);
    const unknown = await get(`/dashboard/origins/${encodeURIComponent('https://never-audited.example')}`);
    assert.equal(unknown.statusCode, 404);
    assert.match(main(unknown.body), /No audit of https:\/\/never-audited\.example is stored\./);
  });
});

describe('links to the audit page', () => {
  test('from the overview’s tickets (their last audit) and a webhook’s attempts (the delivery’s audit)', async () => {
    const overview = main((await get('/dashboard')).body);
    const tickets = overview.slice(overview.indexOf('id="tickets"'), overview.indexOf('id="report"'));
    const open = await fx.database.db.selectFrom('remediation_tickets').select('last_audit_id').where('status', '=', 'open').execute();
    for (const ticket of open) assert.ok(tickets.includes(`last <a href="/dashboard/audits/${ticket.last_audit_id}"><time`), ticket.last_audit_id);
    assert.ok(overview.includes(`<a href="${historyHref()}" aria-label="History of ${origin}">${origin}</a>`), 'the origin links its history');

    const { audit_id: auditId } = await fx.database.db.selectFrom('webhook_deliveries').select('audit_id').where('webhook_id', '=', fx.webhook.id).executeTakeFirstOrThrow();
    const attempts = main((await get(`/dashboard/webhooks/${fx.webhook.id}`)).body);
    assert.ok(attempts.includes(`<a href="/dashboard/audits/${auditId}" aria-label="Audit ${auditId}"><code>${auditId}</code></a>`));
    assert.equal((await get(`/dashboard/audits/${auditId}`)).statusCode, 200, 'and it opens');
  });
});

describe('a database that does not answer', () => {
  test(
    'the audit page, the history and the overview wait no longer than the statement timeout, then answer the 503 page',
    { skip: usingPostgres ? false : 'PostgreSQL only (TEST_DATABASE_URL): the embedded database has one connection, so nothing can hold a lock against it' },
    async () => {
      // Another connection holds the audits table: the session is read (other tables), the page's own reads wait.
      const other = await fx.database.connectAgain!();
      try {
        await other.db.transaction().execute(async (trx) => {
          await sql`lock table audits in access exclusive mode`.execute(trx);
          const started = Date.now();
          const pages = await Promise.all([`/dashboard/audits/${wcag[0]}`, historyHref(), '/dashboard'].map((url) => get(url)));
          for (const res of pages) {
            assert.equal(res.statusCode, 503);
            assert.ok(Number(res.headers['retry-after']) > 0);
            assert.match(main(res.body), /The service is unavailable/);
          }
          assert.ok(Date.now() - started < 15_000, 'bounded by the statement timeout');
        });
      } finally {
        await other.close();
      }
      assert.equal((await get(historyHref())).statusCode, 200, 'and back once the database answers');
    },
  );
});
