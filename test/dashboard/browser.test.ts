// The dashboard in real headless Chromium, against the real app listening on 127.0.0.1 over plain
// HTTP: that is how the service itself serves (TLS ends in front of it), and Chromium treats
// loopback as a secure context, so the session cookie keeps its production attributes (Secure
// included, AUDIT_COOKIE_SECURE left at its default) and the test proves a browser accepts them.
//
// One admin's journey, in order: sign in by keyboard, the skip link, a webhook's latest attempt and
// its attempt list, create a key (reload shows no key), revoke it, download a report, forms with a
// missing or wrong CSRF token, log out. Throughout: no CSP violation, no script ever runs (no
// dialog opens), and the page's styles apply (the inline sheet's hash matches).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createTestUser } from '../support/admin.ts';
import { browserSuite, launchBrowser } from '../support/browser.ts';
import { readPdf } from '../support/pdf.ts';
import { auditHistory, HOSTILE, startDashboardFixture, startShowcase, type DashboardFixture } from './support.ts';

describe('dashboard in Chromium', browserSuite(), () => {
  let fx: DashboardFixture;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let user: { email: string; password: string };
  /** Every console message and dialog: a CSP violation or a script that ran shows up here. */
  const consoleLines: string[] = [];
  const dialogs: string[] = [];

  before(async () => {
    fx = await startDashboardFixture();
    user = await createTestUser(fx.database.db);
    base = await fx.service.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('console', (message: ConsoleMessage) => consoleLines.push(`${message.type()}: ${message.text()}`));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  const focused = () => page.evaluate(() => {
    const el = document.activeElement;
    return el ? { tag: el.tagName.toLowerCase(), id: el.id, text: (el.textContent ?? '').trim() } : null;
  });

  test('sign in with the keyboard alone', async () => {
    await page.goto(`${base}/dashboard`);
    assert.equal(new URL(page.url()).pathname, '/dashboard/login', 'redirected to sign in');
    assert.equal(await page.title(), 'Sign in · Audit service admin');
    // The email field has focus on arrival; type, Tab to the password, type, Enter.
    assert.deepEqual(await focused(), { tag: 'input', id: 'email', text: '' });
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    assert.equal((await focused())?.id, 'password');
    await page.keyboard.type(user.password);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('h1').textContent(), 'Dashboard');
    assert.ok((await page.locator('.account').textContent())!.includes(user.email));
    const [cookie] = await context.cookies();
    assert.equal(cookie!.name, 'svc_session');
    assert.equal(cookie!.httpOnly, true);
    assert.equal(cookie!.secure, true);
    assert.equal(cookie!.sameSite, 'Strict');
  });

  test('the skip link is the first stop and moves focus to the main content; styles apply', async () => {
    await page.goto(`${base}/dashboard`);
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(), { tag: 'a', id: '', text: 'Skip to main content' });
    const box = await page.locator('.skip-link').boundingBox();
    assert.ok(box && box.y >= 0, 'visible when focused');
    await page.keyboard.press('Enter');
    assert.equal((await focused())?.id, 'main');
    // The inline sheet applied: its hash is the one the CSP admits.
    const background = await page.locator('button', { hasText: 'Create key' }).evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(background, 'rgb(11, 79, 168)');
  });

  test('a webhook with its latest attempt, and its attempt list; data shown as text', async () => {
    await page.goto(`${base}/dashboard#webhooks`);
    const row = page.locator('#webhooks ~ .table-wrap tbody tr', { hasText: fx.webhook.url });
    assert.equal(await row.count(), 1);
    const cells = await row.locator('td').allInnerTexts();
    assert.equal(cells[0], 'privacy\nmedium and above');
    assert.ok(cells[1]!.includes(`ops ${HOSTILE}`), 'the owner key’s label, markup as text');
    assert.match(cells[3]!, /^delivered HTTP 200\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    await Promise.all([page.waitForURL(`${base}/dashboard/webhooks/${fx.webhook.id}`), row.getByRole('link', { name: `Attempts of the webhook to ${fx.webhook.url}` }).click()]);
    assert.equal(await page.title(), 'Webhook attempts · Audit service admin');
    const attempt = await page.locator('tbody tr').first().locator('td').allInnerTexts();
    assert.equal(attempt[0], 'delivered HTTP 200');
    assert.equal(attempt[1], '1');
    assert.equal(attempt[4], HOSTILE, 'the receiver’s answer, as text');
    assert.equal(await page.locator('main script, main img').count(), 0, 'no element came from data');
  });

  let rawKey = '';

  test('create a key: shown once; a reload makes no second key and shows none', async () => {
    await page.goto(`${base}/dashboard#keys`);
    await page.getByLabel('Label of a new key').fill(`deploy ${HOSTILE}`);
    await Promise.all([page.waitForURL(`${base}/dashboard/keys`), page.getByRole('button', { name: 'Create key' }).click()]);
    assert.equal(await page.locator('h1').textContent(), 'API key created');
    rawKey = (await page.locator('#raw-key').textContent())!;
    assert.match(rawKey, /^ask_[A-Za-z0-9_-]{43}$/);
    assert.ok((await page.locator('dl.facts').innerText()).includes(`deploy ${HOSTILE}`));
    const reloaded = await page.reload();
    assert.equal(reloaded?.status(), 409);
    assert.equal((await page.content()).includes(rawKey), false);
    assert.equal(await page.locator('#raw-key').count(), 0);
    await page.goto(`${base}/dashboard`);
    assert.equal((await page.content()).includes(rawKey), false, 'the overview shows only the prefix');
    assert.equal(await page.locator('#keys ~ .table-wrap tbody tr', { hasText: rawKey.slice(0, 8) }).count(), 1, 'one key, not two');
    const api = await fetch(`${base}/api/v1/audits`, { headers: { 'x-api-key': rawKey } });
    assert.equal(api.status, 200, 'the new key works');
  });

  test('give the key an audit budget from its row (Enter in the field), its answers carry it; then back to the default', async () => {
    await page.goto(`${base}/dashboard#keys`);
    const display = rawKey.slice(0, 8);
    const row = () => page.locator('#keys ~ .table-wrap tbody tr', { hasText: display });
    assert.match(await row().innerText(), /default \(1000\)/);
    const field = page.getByRole('textbox', { name: `Audit budget ${display}` });
    await field.fill('250');
    await Promise.all([page.waitForURL(`${base}/dashboard?notice=key-budget-set#keys`), field.press('Enter')]);
    assert.match((await page.locator('.notice').textContent())!, /^The key’s audit budget is saved\./);
    assert.equal(await row().locator('.budget-now').textContent(), '250');
    const audit = await fetch(`${base}/api/v1/audit`, { method: 'POST', headers: { 'x-api-key': rawKey, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(audit.status, 400);
    assert.equal(audit.headers.get('ratelimit-policy'), '250;w=60');
    await Promise.all([
      page.waitForURL(`${base}/dashboard?notice=key-budget-default#keys`),
      page.getByRole('button', { name: new RegExp(`^Use default budget for ${display} `) }).click(),
    ]);
    assert.equal(await row().locator('.budget-now').textContent(), 'default (1000)');
    assert.equal(await row().getByRole('button', { name: /^Use default/ }).count(), 0, 'no Use default on the default');
  });

  test('revoke the key: the list says so and the key stops working', async () => {
    await page.goto(`${base}/dashboard#keys`);
    const display = rawKey.slice(0, 8);
    await Promise.all([
      page.waitForURL(`${base}/dashboard?notice=key-revoked#keys`),
      page.getByRole('button', { name: new RegExp(`^Revoke ${display} `) }).click(),
    ]);
    assert.equal(
      await page.locator('.notice').textContent(),
      'The key is revoked: requests that carry it now get 401. Its webhooks send nothing more (their pending deliveries are failed); delete them from their pages.',
    );
    assert.match(await page.locator('#keys ~ .table-wrap tbody tr', { hasText: display }).innerText(), /Revoked \d{4}-/);
    const api = await fetch(`${base}/api/v1/audits`, { headers: { 'x-api-key': rawKey } });
    assert.equal(api.status, 401);
  });

  test('delete a webhook from its page: the overview says so and lists it no more', async () => {
    await page.goto(`${base}/dashboard/webhooks/${fx.webhook.id}`);
    await Promise.all([page.waitForURL(`${base}/dashboard?notice=webhook-deleted#webhooks`), page.getByRole('button', { name: 'Delete this webhook' }).click()]);
    assert.equal(await page.locator('.notice').textContent(), 'The webhook is deleted, with its pending deliveries and its attempts.');
    assert.equal(await page.locator('#webhooks ~ .table-wrap tbody tr', { hasText: fx.webhook.url }).count(), 0);
    const gone = await page.goto(`${base}/dashboard/webhooks/${fx.webhook.id}`);
    assert.equal(gone?.status(), 404);
  });

  test('download a report: a missing pillar is said beside the form; with all three, a one-page PDF downloads', async () => {
    const origin = new URL(fx.webhook.url).origin;
    await page.goto(`${base}/dashboard#report`);
    const field = page.getByLabel('Domain or URL');
    await field.fill(new URL(origin).host);
    const [refused] = await Promise.all([page.waitForResponse((r) => r.url().startsWith(`${base}/dashboard/report?`)), field.press('Enter')]);
    assert.equal(refused.status(), 404);
    assert.equal(
      await page.locator('#report-error').textContent(),
      `No report for ${origin} yet: it has no audit in Accessibility (WCAG). Audit it in every pillar first.`,
    );
    assert.equal(await field.inputValue(), new URL(origin).host, 'the target is kept');

    const audited = await fetch(`${base}/api/v1/audit`, {
      method: 'POST',
      headers: { 'x-api-key': fx.owner.rawKey, 'content-type': 'application/json' },
      body: JSON.stringify({ branch: 'wcag', url: fx.service.pageUrl('/governed') }),
    });
    assert.equal(audited.status, 201);
    await field.fill(`${origin}/some/page`);
    const before = page.url();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    assert.equal(download.suggestedFilename(), 'svc-audit-site.test.pdf');
    const bytes = await fs.readFile((await download.path())!);
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    const pdf = await readPdf(bytes);
    assert.equal(pdf.pages, 1);
    assert.ok(pdf.text.includes(origin));
    assert.equal(page.url(), before, 'a download leaves the page where it was');
  });

  test('a 300-character unbroken label and URL wrap inside their tables at 1280 px: nothing is wider than the page', async () => {
    const unbroken = 'x'.repeat(300);
    // A label stored before labels were bounded (the form now stops at 200), and a URL as long.
    const label = `L${unbroken}`;
    const { id, rawKey: ownerKey } = await createApiKey(fx.database.db, 'placeholder');
    await fx.database.db.updateTable('api_keys').set({ label }).where('id', '=', id).execute();
    const registered = await fetch(`${base}/api/v1/alerts/webhook`, {
      method: 'POST',
      headers: { 'x-api-key': ownerKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${fx.service.pageUrl('/receiver')}?${unbroken}`, trigger: { severity: 'medium', branch: 'privacy' } }),
    });
    assert.equal(registered.status, 201, await registered.clone().text());
    const webhook = (await registered.json()) as { id: string; url: string };
    for (const where of ['/dashboard', `/dashboard/webhooks/${webhook.id}`, `/dashboard/webhooks/${fx.webhook.id}`]) {
      await page.goto(`${base}${where}`);
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, `${where.replaceAll('/', '_')}.png`), fullPage: true });
      const measured = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
        tables: [...document.querySelectorAll('.table-wrap')].map((wrap) => ({ wrap: wrap.clientWidth, table: wrap.scrollWidth })),
      }));
      assert.ok(measured.page <= measured.viewport, `${where}: the page is ${measured.page} px wide in a ${measured.viewport} px viewport`);
      for (const [index, table] of measured.tables.entries()) {
        assert.ok(table.table <= table.wrap, `${where}: table ${index + 1} is ${table.table} px wide in its ${table.wrap} px box`);
      }
    }
    // On the overview: both are shown whole, wrapped, and the short cells beside them stay whole words.
    await page.goto(`${base}/dashboard`);
    const keyRow = page.locator('#keys ~ .table-wrap tbody tr', { hasText: label });
    assert.ok((await keyRow.innerText()).replace(/\s/g, '').includes(label), 'the whole label');
    // A cell stretches to its row's height, so count the lines its text is laid out on instead.
    const lines = (cell: Locator) =>
      cell.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.bottom))).size;
      });
    const [labelCell, createdCell, statusCell] = await keyRow.locator('td').all();
    assert.ok((await lines(labelCell!)) >= 3, 'the label wraps over several lines');
    assert.equal(await lines(createdCell!), 1, 'the creation time stays on one line');
    assert.equal(await lines(statusCell!), 1, '"Active" stays one word');
    const hookRow = page.locator('#webhooks ~ .table-wrap tbody tr', { hasText: unbroken.slice(0, 50) });
    assert.ok((await hookRow.innerText()).replace(/\s/g, '').includes(webhook.url), 'the whole URL');
  });

  test('CSRF: the same forms with the token removed or altered are refused with 403 and change nothing', async () => {
    const keysBefore = await fx.database.db.selectFrom('api_keys').select('id').execute();
    for (const tamper of ['remove', 'alter'] as const) {
      await page.goto(`${base}/dashboard#keys`);
      // Changed through DevTools, as an attacker's copy of the form would arrive.
      await page.locator('form.create-key input[name=_csrf]').evaluate((input: HTMLInputElement, how) => {
        if (how === 'remove') input.remove();
        else input.value = `${input.value.slice(0, -2)}xx`;
      }, tamper);
      await page.getByLabel('Label of a new key').fill('forged');
      const [response] = await Promise.all([page.waitForResponse(`${base}/dashboard/keys`), page.getByRole('button', { name: 'Create key' }).click()]);
      assert.equal(response.status(), 403, tamper);
      assert.equal(await page.locator('h1').textContent(), 'The form was refused');
    }
    assert.equal((await fx.database.db.selectFrom('api_keys').select('id').execute()).length, keysBefore.length);
    // Log out with a wrong token: refused, still signed in.
    await page.goto(`${base}/dashboard`);
    await page.locator('.account input[name=_csrf]').evaluate((input: HTMLInputElement) => (input.value = 'wrong'));
    const [response] = await Promise.all([page.waitForResponse(`${base}/dashboard/logout`), page.getByRole('button', { name: 'Log out' }).click()]);
    assert.equal(response.status(), 403);
    await page.goto(`${base}/dashboard`);
    assert.equal(new URL(page.url()).pathname, '/dashboard');
  });

  test('log out: back to the sign-in page, and the dashboard asks to sign in again', async () => {
    await page.goto(`${base}/dashboard`);
    await Promise.all([page.waitForURL(`${base}/dashboard/login`), page.getByRole('button', { name: 'Log out' }).click()]);
    // The sign-in page it lands on sets its own sign-in cookie; the session cookie is gone.
    assert.deepEqual((await context.cookies()).map((cookie) => cookie.name), ['__Host-svc_login'], 'the session cookie is cleared');
    await page.goto(`${base}/dashboard`);
    assert.equal(new URL(page.url()).pathname, '/dashboard/login');
  });

  test('nothing ran and nothing was blocked on any page', () => {
    assert.deepEqual(dialogs, [], 'no script ran (the hostile data stayed text)');
    const violations = consoleLines.filter((line) => /Content Security Policy|Refused to/i.test(line));
    assert.deepEqual(violations, []);
    // The only console errors are the statuses this journey asked for (403, 404, 409).
    const errors = consoleLines.filter((line) => line.startsWith('error:') && !/status of (403|404|409)/.test(line));
    assert.deepEqual(errors, []);
  });
});

describe('an origin’s history and its audits in Chromium, as an admin and as a member', browserSuite(), () => {
  let fx: DashboardFixture;
  let browser: Browser;
  let base: string;
  let origin: string;
  /** Every console message and dialog of every page: a CSP violation or a script that ran shows up here. */
  const consoleLines: string[] = [];
  const dialogs: string[] = [];

  before(async () => {
    fx = await startDashboardFixture();
    await auditHistory(fx, fx.owner.rawKey, 'other.test', [0, 1, 3, 2, 5]);
    origin = new URL(fx.service.fixture.url('other.test', '/')).origin;
    base = await fx.service.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  /** A new browser signed in through the form as a fresh user of the role. */
  async function signedIn(role: 'admin' | 'member'): Promise<Page> {
    const user = await createTestUser(fx.database.db, role);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('console', (message: ConsoleMessage) => consoleLines.push(`${role} ${message.type()}: ${message.text()}`));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${base}/dashboard/login`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Sign in' }).click()]);
    return page;
  }

  /** Nothing is wider than the page, and every table fits its scrolling box. */
  async function fits(page: Page, what: string) {
    const measured = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
      tables: [...document.querySelectorAll('.table-wrap')].map((wrap) => wrap.scrollWidth <= wrap.clientWidth),
    }));
    assert.ok(measured.page <= measured.viewport, `${what}: the page is ${measured.page} px wide in ${measured.viewport} px`);
    assert.ok(measured.tables.every(Boolean), `${what}: a table is wider than its box`);
  }

  for (const role of ['admin', 'member'] as const) {
    test(`${role}: from the overview to the origin’s history, its chart and table, then an audit with its markup as text`, async () => {
      const page = await signedIn(role);
      assert.equal(await page.locator('#keys').count(), role === 'admin' ? 1 : 0, 'API keys for admins only');
      assert.equal(await page.getByRole('link', { name: 'API keys' }).count(), role === 'admin' ? 1 : 0);

      await Promise.all([page.waitForURL(`${base}/dashboard/origins/${encodeURIComponent(origin)}`), page.getByRole('link', { name: `History of ${origin}` }).click()]);
      assert.equal(await page.title(), `History of ${origin} · Audit service admin`);
      // The chart is an image named by its title; it is drawn and has room.
      const chart = page.getByRole('img', { name: `Accessibility (WCAG): errors and warnings per audit of ${origin}` });
      assert.equal(await chart.count(), 1);
      const box = await chart.boundingBox();
      assert.ok(box && box.width >= 300 && box.height >= 140, `the chart is ${box?.width}×${box?.height}`);
      assert.match((await chart.getAttribute('aria-labelledby'))!, /chart-wcag-desc/);
      assert.equal(await page.locator('#pillar-wcag ~ .history circle, section[aria-labelledby="pillar-wcag"] circle').count(), 5 + 1);
      // The styles of the one sheet apply; the SVG's presentation attributes need none.
      assert.equal(await page.locator('section[aria-labelledby="pillar-wcag"] .history').evaluate((el) => getComputedStyle(el).display), 'flex');
      const rows = page.locator('section[aria-labelledby="pillar-wcag"] tbody tr');
      assert.equal(await rows.count(), 5);
      assert.deepEqual((await rows.first().locator('td').allInnerTexts()).slice(0, 3), ['0', '3', '3'], 'the newest audit: every issue fixed');
      await fits(page, 'history');

      // The oldest audit has every issue, the image with script markup among them.
      const oldest = rows.last().getByRole('link');
      const href = await oldest.getAttribute('href');
      await Promise.all([page.waitForURL(`${base}${href}`), oldest.click()]);
      assert.equal(await page.locator('h1').textContent(), 'Accessibility (WCAG) audit');
      const markup = page.locator('section.finding', { hasText: '1.1.1' }).locator('pre code');
      assert.match((await markup.textContent())!, /data-note="<script>alert\(&quot;x&quot;\)<\/script><img src=x onerror=alert\(1\)>"/);
      assert.equal(await page.locator('main script, main img').count(), 0, 'no element came from data');
      assert.ok((await page.locator('#controls ~ .table-wrap tbody tr').count()) >= 5, 'the checked controls');
      await fits(page, 'audit');
      assert.equal(await page.getByRole('link', { name: `History of ${origin}` }).count(), 1, 'and back to the history');
      assert.match((await page.locator('section[aria-labelledby="changes"] p').first().textContent())!, /first audit of this page/);

      // The newest audit: its changes list what it fixed; follow the comparison to the audit before it.
      await page.goto(`${base}/dashboard/origins/${encodeURIComponent(origin)}`);
      const newest = rows.first().getByRole('link');
      await Promise.all([page.waitForURL(`${base}${await newest.getAttribute('href')}`), newest.click()]);
      const changes = page.locator('section[aria-labelledby="changes"]');
      assert.match((await changes.locator('p').first().textContent())!, /: 0 new \(0 of them back after a fix\), \d+ fixed, 0 persisting\./);
      assert.equal(await changes.getByRole('table', { name: 'Fixed' }).count(), 1);
      const against = changes.getByRole('link', { name: /^the audit of / });
      const previous = await against.getAttribute('href');
      await Promise.all([page.waitForURL(`${base}${previous}`), against.click()]);
      assert.equal(await page.locator('h1').textContent(), 'Accessibility (WCAG) audit');
      await fits(page, 'the previous audit');
      await page.context().close();
    });
  }

  test('admin: pause a monitor from the monitors page, then resume it; a member sees it without the forms', async () => {
    const created = await fx.service.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: { 'x-api-key': fx.owner.rawKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: fx.service.fixture.url('other.test', '/improving'), every: '12h' }),
    });
    assert.equal(created.statusCode, 201, created.body);
    const { id, url } = created.json();
    const page = await signedIn('admin');
    await Promise.all([page.waitForURL(`${base}/dashboard/monitors`), page.getByRole('link', { name: 'Monitors' }).click()]);
    await fits(page, 'the monitors page');
    await Promise.all([
      page.waitForURL(`${base}/dashboard/monitors?notice=paused`),
      page.getByRole('button', { name: `Pause the monitor of ${url} every 12h` }).click(),
    ]);
    assert.equal(await page.getByRole('status').textContent(), 'The monitor is paused: no run starts until it is resumed.');
    assert.ok((await fx.database.db.selectFrom('monitors').select('paused_at').where('id', '=', id).executeTakeFirstOrThrow()).paused_at);
    await Promise.all([
      page.waitForURL(`${base}/dashboard/monitors?notice=resumed`),
      page.getByRole('button', { name: `Resume the monitor of ${url} every 12h` }).click(),
    ]);
    assert.equal((await fx.database.db.selectFrom('monitors').select('paused_at').where('id', '=', id).executeTakeFirstOrThrow()).paused_at, null);
    await page.context().close();
    const viewer = await signedIn('member');
    await viewer.goto(`${base}/dashboard/monitors`);
    assert.equal(await viewer.getByRole('cell', { name: '12h' }).count(), 1);
    assert.equal(await viewer.getByRole('button', { name: /Pause|Delete/ }).count(), 0);
    await viewer.context().close();
  });

  test('a member opening an admin page gets the 403 page, and the overview shows webhooks without their path', async () => {
    const page = await signedIn('member');
    const response = await page.goto(`${base}/dashboard/webhooks/${fx.webhook.id}`);
    assert.equal(response?.status(), 403);
    assert.equal(await page.locator('h1').textContent(), 'This page is for admins');
    await page.goto(`${base}/dashboard`);
    const row = page.locator('#webhooks ~ .table-wrap tbody tr').first();
    assert.equal(await row.locator('th').textContent(), `${new URL(fx.webhook.url).origin}/…`);
    await page.context().close();
  });

  test('nothing ran and nothing was blocked on any page', () => {
    assert.deepEqual(dialogs, [], 'no script ran (the markup in the audit stayed text)');
    assert.deepEqual(consoleLines.filter((line) => /Content Security Policy|Refused to/i.test(line)), []);
    assert.deepEqual(consoleLines.filter((line) => / error: /.test(line) && !/status of 403/.test(line)), []);
  });
});

describe('the README’s screenshots', browserSuite(), () => {
  const update = process.env.UPDATE_SCREENSHOT === '1';
  const docs = path.resolve(import.meta.dirname, '../../docs');

  /** The showcase's data, an admin signed in as ops@example.com, and a page at 1280 px. */
  async function showcaseSignedIn(showcase: Awaited<ReturnType<typeof startShowcase>>, browser: Browser) {
    const user = await createTestUser(showcase.database.db);
    await showcase.database.db.updateTable('users').set({ email: 'ops@example.com' }).where('email', '=', user.email).execute();
    const base = await showcase.service.app.listen({ host: '127.0.0.1', port: 0 });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/dashboard/login`);
    await page.getByLabel('Email').fill('ops@example.com');
    await page.getByLabel('Password').fill(user.password);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Sign in' }).click()]);
    return { base, page };
  }

  test(`the overview with ordinary data${update ? `, written to docs/dashboard.png` : ' (UPDATE_SCREENSHOT=1 writes docs/dashboard.png)'}`, async () => {
    const showcase = await startShowcase();
    const browser = await launchBrowser();
    try {
      const { page } = await showcaseSignedIn(showcase, browser);
      const attempts = await page.locator('#webhooks ~ .table-wrap tbody tr').allInnerTexts();
      assert.equal(attempts.length, 2);
      assert.ok(attempts.some((row) => /delivered HTTP 200/.test(row)));
      assert.ok(attempts.some((row) => /failed HTTP 503\nnon-2xx response \(status 503\)/.test(row)));
      assert.match(await page.locator('#keys ~ .table-wrap tbody tr', { hasText: 'old-laptop' }).innerText(), /Revoked/);
      const shot = await page.screenshot({ fullPage: true, ...(update ? { path: path.join(docs, 'dashboard.png') } : {}) });
      assert.equal(shot.subarray(1, 4).toString('latin1'), 'PNG');
    } finally {
      await browser.close();
      await showcase.close();
    }
  });

  test(`an origin’s history over ten days${update ? ', written to docs/dashboard-history.png' : ' (UPDATE_SCREENSHOT=1 writes docs/dashboard-history.png)'}`, async () => {
    const showcase = await startShowcase();
    const browser = await launchBrowser();
    try {
      // A page fixed over days, with one relapse; privacy audits now and then.
      await auditHistory(showcase, showcase.rawKey, 'site.test', [0, 0, 1, 1, 2, 3, 2, 4, 4, 5]);
      const { base, page } = await showcaseSignedIn(showcase, browser);
      const origin = new URL(showcase.service.pageUrl('/')).origin;
      await Promise.all([page.waitForURL(`${base}/dashboard/origins/${encodeURIComponent(origin)}`), page.getByRole('link', { name: `History of ${origin}` }).click()]);
      assert.equal(await page.locator('section[aria-labelledby="pillar-wcag"] tbody tr').count(), 11, 'ten audits of the page and the showcase’s one');
      assert.equal(await page.locator('svg.chart').count(), 3, 'a chart per pillar');
      const shot = await page.screenshot({ fullPage: true, ...(update ? { path: path.join(docs, 'dashboard-history.png') } : {}) });
      assert.equal(shot.subarray(1, 4).toString('latin1'), 'PNG');
    } finally {
      await browser.close();
      await showcase.close();
    }
  });
});
