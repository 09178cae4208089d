import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  CMPS,
  CMP_IDS,
  CONSENT_FRAMEWORKS,
  COOKIES,
  COOKIE_CATEGORIES,
  GATING_ATTRIBUTES,
  REFUSAL_OR_CONSENT_NAME,
  TRACKERS,
  TRACKER_CATEGORIES,
  classifyCookie,
  classifyTrackerUrl,
  cmpForScriptUrl,
  compileAnchoredPattern,
  compilePathGlob,
  consentCookieOwner,
  cookieNameNeedsDomain,
  hostMatches,
  isExecutableScriptType,
  parseCookieCatalogue,
  parseTrackerCatalogue,
  urlMatchesRule,
  type CookieContext,
  type GatingAttribute,
} from '../../../src/audit/privacy/knowledge/index.ts';

const knowledgeDir = path.resolve(import.meta.dirname, '../../../src/audit/privacy/knowledge');
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(knowledgeDir, file), 'utf8'));

describe('classifyCookie: known cookies', () => {
  const cases: Array<[name: string, context: CookieContext | undefined, vendor: string, category: 'analytics' | 'marketing']> = [
    ['_ga', undefined, 'Google Analytics', 'analytics'],
    ['_gid', undefined, 'Google Analytics', 'analytics'],
    ['_ga_ABC123', undefined, 'Google Analytics', 'analytics'],
    ['_gat', undefined, 'Google Analytics', 'analytics'],
    ['_gat_UA-12345-1', undefined, 'Google Analytics', 'analytics'],
    ['_gat_gtag_UA_12345_1', undefined, 'Google Analytics', 'analytics'],
    ['_dc_gtm_UA-12345-1', undefined, 'Google Analytics', 'analytics'],
    ['__utma', undefined, 'Google Analytics', 'analytics'],
    ['__utmz', undefined, 'Google Analytics', 'analytics'],
    ['_gac_UA-12345-1', undefined, 'Google Ads', 'marketing'],
    ['_gcl_au', undefined, 'Google Ads', 'marketing'],
    ['_gcl_aw', undefined, 'Google Ads', 'marketing'],
    ['__gads', undefined, 'Google AdSense / Ad Manager', 'marketing'],
    ['IDE', { domain: '.doubleclick.net' }, 'Google Marketing Platform (DoubleClick)', 'marketing'],
    ['test_cookie', { host: 'stats.g.doubleclick.net' }, 'Google Marketing Platform (DoubleClick)', 'marketing'],
    ['NID', { domain: '.google.com' }, 'Google', 'marketing'],
    ['VISITOR_INFO1_LIVE', { domain: '.youtube.com' }, 'YouTube', 'marketing'],
    ['YSC', { domain: '.youtube.com' }, 'YouTube', 'marketing'],
    ['_fbp', undefined, 'Meta (Facebook)', 'marketing'],
    ['_fbc', undefined, 'Meta (Facebook)', 'marketing'],
    ['fr', { domain: '.facebook.com' }, 'Meta (Facebook)', 'marketing'],
    ['_clck', undefined, 'Microsoft Clarity', 'analytics'],
    ['_clsk', undefined, 'Microsoft Clarity', 'analytics'],
    ['_uetsid', undefined, 'Microsoft Advertising (Bing UET)', 'marketing'],
    ['_uetvid', undefined, 'Microsoft Advertising (Bing UET)', 'marketing'],
    ['MUID', { domain: '.bing.com' }, 'Microsoft Advertising (Bing UET)', 'marketing'],
    ['li_fat_id', undefined, 'LinkedIn', 'marketing'],
    ['bcookie', { domain: '.linkedin.com' }, 'LinkedIn', 'marketing'],
    ['UserMatchHistory', { domain: '.linkedin.com' }, 'LinkedIn', 'marketing'],
    ['AnalyticsSyncHistory', { domain: '.linkedin.com' }, 'LinkedIn', 'analytics'],
    ['_ttp', undefined, 'TikTok', 'marketing'],
    ['_tt_enable_cookie', undefined, 'TikTok', 'marketing'],
    ['_pin_unauth', undefined, 'Pinterest', 'marketing'],
    ['_pinterest_ct_ua', undefined, 'Pinterest', 'marketing'],
    ['personalization_id', { domain: '.x.com' }, 'X (Twitter)', 'marketing'],
    ['guest_id', { domain: '.twitter.com' }, 'X (Twitter)', 'marketing'],
    ['_scid', undefined, 'Snap', 'marketing'],
    ['_rdt_uuid', undefined, 'Reddit', 'marketing'],
    ['_hjSession_12345', undefined, 'Hotjar', 'analytics'],
    ['_hjSessionUser_12345', undefined, 'Hotjar', 'analytics'],
    ['mp_0a1b2c3d4e5f60718293a4b5c6d7e8f9_mixpanel', undefined, 'Mixpanel', 'analytics'],
    ['AMP_0a1b2c3d4e', undefined, 'Amplitude', 'analytics'],
    ['AMP_MKTG_0a1b2c3d4e', undefined, 'Amplitude', 'analytics'],
    ['amplitude_id_0a1b2c3d4e5f60718293a4b5c6d7e8f9example.com', undefined, 'Amplitude', 'analytics'],
    ['ajs_anonymous_id', undefined, 'Segment', 'analytics'],
    ['_hp2_id.1234567', undefined, 'Heap', 'analytics'],
    ['_pk_id.1.1fff', undefined, 'Matomo', 'analytics'],
    ['_pk_ses.1.1fff', undefined, 'Matomo', 'analytics'],
    ['s_cc', undefined, 'Adobe Analytics', 'analytics'],
    ['AMCV_0123456789ABCDEF01234567%40AdobeOrg', undefined, 'Adobe Experience Cloud', 'analytics'],
    ['demdex', { domain: '.demdex.net' }, 'Adobe Audience Manager', 'marketing'],
    ['cto_bundle', undefined, 'Criteo', 'marketing'],
    ['__hstc', undefined, 'HubSpot', 'analytics'],
    ['hubspotutk', undefined, 'HubSpot', 'analytics'],
    ['_mkto_trk', undefined, 'Marketo', 'marketing'],
    ['visitor_id123456', undefined, 'Salesforce Pardot', 'marketing'],
    ['visitor_id123456-hash', undefined, 'Salesforce Pardot', 'marketing'],
    ['_ym_uid', undefined, 'Yandex Metrica', 'analytics'],
    ['__qca', undefined, 'Quantcast', 'marketing'],
    ['_chartbeat2', undefined, 'Chartbeat', 'analytics'],
    ['_parsely_visitor', undefined, 'Parse.ly', 'analytics'],
    ['optimizelyEndUserId', undefined, 'Optimizely', 'analytics'],
    ['_vwo_uuid_v2', undefined, 'VWO', 'analytics'],
    ['fs_uid', undefined, 'FullStory', 'analytics'],
    ['uuid2', { domain: '.adnxs.com' }, 'Xandr (AppNexus)', 'marketing'],
    ['TDID', { domain: '.adsrvr.org' }, 'The Trade Desk', 'marketing'],
    ['KADUSERCOOKIE', { domain: 'pubmatic.com' }, 'PubMatic', 'marketing'],
    ['i', { domain: '.openx.net' }, 'OpenX', 'marketing'],
    ['i', { domain: '.yandex.ru' }, 'Yandex', 'marketing'],
    ['C', { domain: 'adform.net' }, 'Adform', 'marketing'],
    ['uid', { domain: 'adform.net' }, 'Adform', 'marketing'],
    ['uid', { host: 'gum.criteo.com' }, 'Criteo', 'marketing'],
    ['B', { domain: '.yahoo.com' }, 'Yahoo', 'marketing'],
    ['mc', { domain: '.quantserve.com' }, 'Quantcast', 'marketing'],
    ['UID', { domain: '.scorecardresearch.com' }, 'Comscore', 'analytics'],
    ['ad-id', { domain: '.amazon-adsystem.com' }, 'Amazon Ads', 'marketing'],
  ];
  for (const [name, context, vendor, category] of cases) {
    test(`${name}${context === undefined ? '' : ` (${JSON.stringify(context)})`} → ${vendor}, ${category}`, () => {
      const hit = classifyCookie(name, context);
      assert.ok(hit, `${name} should be classified`);
      assert.equal(hit.vendor, vendor);
      assert.equal(hit.category, category);
      assert.ok(hit.matched.length > 0);
    });
  }

  test('matched names the entry: the exact name, a prefix with *, or the pattern', () => {
    assert.equal(classifyCookie('_ga')?.matched, '_ga');
    assert.equal(classifyCookie('_hjSession_12345')?.matched, '_hj*');
    assert.equal(classifyCookie('_ga_ABC123')?.matched, '^_ga_[A-Z0-9]+$');
  });
});

describe('classifyCookie: near-misses stay unclassified', () => {
  const misses: Array<[name: string, context?: CookieContext]> = [
    ['_gaexample'],
    ['_ga_'],
    ['_GA'],
    ['ga'],
    ['_gidx'],
    ['__utmq'],
    ['session'],
    ['PHPSESSID'],
    ['JSESSIONID'],
    ['ASP.NET_SessionId'],
    ['csrftoken'],
    ['XSRF-TOKEN'],
    ['wordpress_logged_in_0123abcd'],
    ['cart'],
    ['__cf_bm'],
    ['__Host-next-auth.csrf-token'],
    ['cookieconsent_status'],
    ['OptanonConsent'],
    ['OptanonAlertBoxClosed'],
    ['CookieConsent'],
    ['euconsent-v2'],
    ['usprivacy'],
    ['cmplz_marketing'],
    ['optimizelyOptOut'],
    ['__hs_opt_out'],
    ['_pk'],
    ['mp_mixpanel'],
    // Short and generic names need their vendor's domain.
    ['i'],
    ['B'],
    ['C'],
    ['A3'],
    ['mc'],
    ['uid'],
    ['UID'],
    ['id'],
    ['fr'],
    ['IDE'],
    ['MUID'],
    ['i', { domain: 'example.com' }],
    ['B', { host: 'www.example.org' }],
    ['uid', { domain: 'criteo.com.evil.example' }],
    ['uid', { domain: 'notcriteo.com' }],
    ['fr', { domain: 'facebook.com.example.org' }],
  ];
  for (const [name, context] of misses) {
    test(`${name}${context === undefined ? '' : ` (${JSON.stringify(context)})`}`, () => {
      assert.equal(classifyCookie(name, context), undefined);
    });
  }
});

describe('classifyTrackerUrl', () => {
  const hits: Array<[url: string | URL, vendor: string, category: string]> = [
    ['https://www.google-analytics.com/analytics.js', 'Google Analytics', 'analytics'],
    ['https://ssl.google-analytics.com/ga.js', 'Google Analytics', 'analytics'],
    ['https://region1.analytics.google.com/g/collect?v=2', 'Google Analytics', 'analytics'],
    ['https://www.googletagmanager.com/gtag/js?id=G-ABC123', 'Google Analytics', 'analytics'],
    ['https://www.googletagmanager.com/gtag/js?id=UA-12345-1', 'Google Analytics', 'analytics'],
    ['https://www.googletagmanager.com/gtag/js?id=AW-123456', 'Google Ads', 'marketing'],
    ['https://www.googletagmanager.com/gtag/js?id=DC-123456', 'Google Marketing Platform (Floodlight)', 'marketing'],
    ['https://www.googletagmanager.com/gtag/js', 'Google tag (gtag.js)', 'analytics'],
    ['https://www.googletagmanager.com/gtm.js?id=GTM-ABC123', 'Google Tag Manager', 'tag-manager'],
    ['https://www.googletagmanager.com/ns.html?id=GTM-ABC123', 'Google Tag Manager', 'tag-manager'],
    ['https://googleads.g.doubleclick.net/pagead/viewthroughconversion/123/', 'Google Marketing Platform (DoubleClick)', 'marketing'],
    ['https://www.googleadservices.com/pagead/conversion.js', 'Google Ads', 'marketing'],
    ['https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js', 'Google AdSense', 'marketing'],
    ['https://www.google.com/pagead/1p-user-list/123/', 'Google Ads', 'marketing'],
    ['https://connect.facebook.net/en_US/fbevents.js', 'Meta Pixel (Facebook)', 'marketing'],
    ['https://www.facebook.com/tr?id=123&ev=PageView&noscript=1', 'Meta Pixel (Facebook)', 'marketing'],
    ['https://www.facebook.com/tr/', 'Meta Pixel (Facebook)', 'marketing'],
    ['https://snap.licdn.com/li.lms-analytics/insight.min.js', 'LinkedIn Insight Tag', 'marketing'],
    ['https://px.ads.linkedin.com/collect/?pid=1', 'LinkedIn Insight Tag', 'marketing'],
    ['https://bat.bing.com/bat.js', 'Microsoft Advertising (Bing UET)', 'marketing'],
    ['https://www.clarity.ms/tag/abc123', 'Microsoft Clarity', 'analytics'],
    ['https://static.hotjar.com/c/hotjar-123.js?sv=6', 'Hotjar', 'analytics'],
    ['https://script.hotjar.com/modules.js', 'Hotjar', 'analytics'],
    ['https://cdn.mxpnl.com/libs/mixpanel-2-latest.min.js', 'Mixpanel', 'analytics'],
    ['https://cdn.amplitude.com/libs/analytics-browser-2.0.0-min.js.gz', 'Amplitude', 'analytics'],
    ['https://cdn.segment.com/analytics.js/v1/KEY/analytics.min.js', 'Segment', 'analytics'],
    ['https://cdn.heapanalytics.com/js/heap-123.js', 'Heap', 'analytics'],
    ['https://cdn.matomo.cloud/example.matomo.cloud/matomo.js', 'Matomo', 'analytics'],
    ['https://stats.example.org/matomo.js', 'Matomo (self-hosted)', 'analytics'],
    ['https://example.org/analytics/piwik.php?idsite=1&rec=1', 'Matomo (self-hosted)', 'analytics'],
    ['https://analytics.tiktok.com/i18n/pixel/events.js', 'TikTok Pixel', 'marketing'],
    ['https://s.pinimg.com/ct/core.js', 'Pinterest Tag', 'marketing'],
    ['https://ct.pinterest.com/v3/?tid=1', 'Pinterest Tag', 'marketing'],
    ['https://static.ads-twitter.com/uwt.js', 'X (Twitter) Pixel', 'marketing'],
    ['https://sc-static.net/scevent.min.js', 'Snap Pixel', 'marketing'],
    ['https://www.redditstatic.com/ads/pixel.js', 'Reddit Pixel', 'marketing'],
    ['https://js.hs-scripts.com/123456.js', 'HubSpot', 'analytics'],
    ['https://munchkin.marketo.net/munchkin.js', 'Marketo Munchkin', 'marketing'],
    ['https://mc.yandex.ru/metrika/tag.js', 'Yandex Metrica', 'analytics'],
    ['https://sb.scorecardresearch.com/beacon.js', 'Comscore', 'analytics'],
    ['https://edge.fullstory.com/s/fs.js', 'FullStory', 'analytics'],
    ['https://www.fullstory.com/s/fs.js', 'FullStory', 'analytics'],
    ['https://dev.visualwebsiteoptimizer.com/j.php?a=1', 'VWO', 'analytics'],
    ['https://static.criteo.net/js/ld/publishertag.js', 'Criteo', 'marketing'],
    ['https://cdn.taboola.com/libtrc/pub/loader.js', 'Taboola', 'marketing'],
    ['https://c.amazon-adsystem.com/aax2/apstag.js', 'Amazon Ads', 'marketing'],
    ['https://assets.adobedtm.com/launch-EN123.min.js', 'Adobe Experience Platform Tags', 'tag-manager'],
    ['https://tags.tiqcdn.com/utag/acme/main/prod/utag.js', 'Tealium iQ', 'tag-manager'],
    // Forms the page may hold: protocol-relative, URL objects, upper case, a trailing dot.
    ['//www.google-analytics.com/analytics.js', 'Google Analytics', 'analytics'],
    [new URL('https://www.google-analytics.com/analytics.js'), 'Google Analytics', 'analytics'],
    ['https://WWW.Google-Analytics.COM/analytics.js', 'Google Analytics', 'analytics'],
    ['https://www.google-analytics.com./analytics.js', 'Google Analytics', 'analytics'],
  ];
  for (const [url, vendor, category] of hits) {
    test(`${String(url)} → ${vendor}`, () => {
      const hit = classifyTrackerUrl(url);
      assert.ok(hit, `${String(url)} should be classified`);
      assert.equal(hit.vendor, vendor);
      assert.equal(hit.category, category);
      assert.equal(hit.host, new URL(String(url).startsWith('//') ? `https:${String(url)}` : url).hostname.replace(/\.$/, '').toLowerCase());
    });
  }

  test('matched names the rule: host plus the path glob that matched', () => {
    assert.equal(classifyTrackerUrl('https://www.googletagmanager.com/gtag/js?id=G-1')?.matched, 'googletagmanager.com/gtag/js');
    assert.equal(classifyTrackerUrl('https://example.org/x/matomo.js')?.matched, '*/**/matomo.js');
    assert.equal(classifyTrackerUrl('https://www.google-analytics.com/analytics.js')?.matched, 'google-analytics.com');
  });

  const misses = [
    'https://notgoogle-analytics.com/analytics.js',
    'https://notgoogle-analytics.com.evil/analytics.js',
    'https://google-analytics.com.example.org/analytics.js',
    'https://googletagmanager.com.example.org/gtm.js',
    'https://fakedoubleclick.net/ad.js',
    'https://example.com/js/analytics-helpers.js',
    'https://example.com/js/google-analytics.js',
    'https://example.com/matomo.jsx',
    'https://example.com/static/matomo.js.map',
    'https://www.facebook.com/translate',
    'https://www.facebook.com/trending',
    'https://www.facebook.com/plugins/page.php',
    'https://s.pinimg.com/images/logo.png',
    'https://www.redditstatic.com/desktop2x/img/favicon.png',
    'https://www.google.com/maps/embed?pb=1',
    'https://fonts.googleapis.com/css2?family=Inter',
    'https://fundingchoicesmessages.google.com/i/pub-123?ers=1',
    'https://plausible.io/js/script.js',
    'https://www.youtube.com/embed/abc',
    'https://cdn.cookielaw.org/scripttemplates/otSDKStub.js',
    '/js/analytics.js',
    'analytics.js',
    'data:text/javascript,alert(1)',
    'javascript:void(0)',
    'ftp://www.google-analytics.com/analytics.js',
    'not a url',
    '',
  ];
  for (const url of misses) {
    test(`not a tracker: ${JSON.stringify(url)}`, () => assert.equal(classifyTrackerUrl(url), undefined));
  }
});

describe('host and path helpers', () => {
  test('hostMatches is a whole-label suffix match, case- and dot-insensitive', () => {
    assert.equal(hostMatches('www.Google-Analytics.com', 'google-analytics.com'), true);
    assert.equal(hostMatches('.doubleclick.net', 'doubleclick.net'), true);
    assert.equal(hostMatches('doubleclick.net.', 'doubleclick.net'), true);
    assert.equal(hostMatches('notdoubleclick.net', 'doubleclick.net'), false);
    assert.equal(hostMatches('doubleclick.net.example.org', 'doubleclick.net'), false);
    assert.equal(hostMatches('net', 'doubleclick.net'), false);
    assert.equal(hostMatches('example.com', ''), false);
  });

  test('path globs: * within a segment, /**/ any depth, trailing / = below, else exact or followed by /', () => {
    const tr = compilePathGlob('/tr');
    assert.ok(tr.test('/tr') && tr.test('/tr/') && !tr.test('/track') && !tr.test('/x/tr'));
    const fb = compilePathGlob('/*/fbevents.js');
    assert.ok(fb.test('/en_US/fbevents.js') && !fb.test('/a/b/fbevents.js') && !fb.test('/fbevents.js'));
    const any = compilePathGlob('/**/matomo.js');
    assert.ok(any.test('/matomo.js') && any.test('/a/b/matomo.js') && !any.test('/xmatomo.js') && !any.test('/matomo.jsx'));
    const below = compilePathGlob('/ads/');
    assert.ok(below.test('/ads/pixel.js') && !below.test('/ads') && !below.test('/adsx/'));
    assert.throws(() => compilePathGlob('tr'), /must start with/);
  });

  test('urlMatchesRule honours host, paths and query', () => {
    const rule = { host: 'app.termly.io', paths: ['/resource-blocker/'], query: { autoBlock: 'on' } };
    assert.equal(urlMatchesRule('https://app.termly.io/resource-blocker/uuid?autoBlock=on', rule), true);
    assert.equal(urlMatchesRule('https://app.termly.io/resource-blocker/uuid?autoBlock=off', rule), false);
    assert.equal(urlMatchesRule('https://app.termly.io/embed.min.js?autoBlock=on', rule), false);
  });
});

describe('consent-management platforms', () => {
  test('the ten required CMPs (plus tarteaucitron and cookieconsent) are present, once each', () => {
    assert.deepEqual(CMPS.map((c) => c.id).sort(), [...CMP_IDS].sort());
    for (const id of ['onetrust', 'cookiebot', 'didomi', 'quantcast-choice', 'trustarc', 'usercentrics', 'osano', 'termly', 'cookieyes', 'complianz']) {
      assert.ok((CMP_IDS as readonly string[]).includes(id), id);
    }
    assert.equal(CMP_IDS.length, 12);
  });

  for (const cmp of CMPS) {
    test(`${cmp.name}: a static signal, banner ids, cookies that stay unclassified`, () => {
      assert.ok(cmp.scriptSources.length + cmp.staticSignals.length >= 1, 'at least one static signal');
      const bannerIds = [...cmp.banner.injected, ...(cmp.banner.static?.container ?? [])];
      assert.ok(bannerIds.length >= 1, 'banner elements');
      assert.ok(bannerIds.every((m) => m.id !== undefined || m.class !== undefined || m.attribute !== undefined));
      if (cmp.banner.rendering === 'script') assert.ok(cmp.banner.injected.length >= 1);
      else {
        const s = cmp.banner.static;
        assert.ok(s, 'server-rendered banners describe their markup');
        assert.ok(s.container.length > 0 && s.accept.length > 0 && s.reject.length > 0);
      }
      for (const name of cmp.consentCookies) {
        assert.equal(classifyCookie(name), undefined, `${name} is a consent cookie`);
        assert.equal(consentCookieOwner(name), cmp.name);
      }
    });
  }

  test('Complianz is judged on its server-rendered markup; the rest inject their banner', () => {
    const complianz = CMPS.find((c) => c.id === 'complianz');
    assert.equal(complianz?.banner.rendering, 'server');
    assert.deepEqual(complianz?.banner.static?.container[0], { id: 'cmplz-cookiebanner-container' });
    for (const id of ['onetrust', 'cookiebot', 'didomi', 'quantcast-choice', 'trustarc', 'usercentrics', 'osano', 'termly']) {
      assert.equal(CMPS.find((c) => c.id === id)?.banner.rendering, 'script', id);
    }
  });

  const loaders: Array<[url: string, id: string]> = [
    ['https://cdn.cookielaw.org/scripttemplates/otSDKStub.js', 'onetrust'],
    ['https://cdn.cookielaw.org/consent/0190a1b2-0000-7000-8000-000000000000/OtAutoBlock.js', 'onetrust'],
    ['https://cookie-cdn.cookiepro.com/scripttemplates/otSDKStub.js', 'onetrust'],
    ['https://consent.cookiebot.com/uc.js', 'cookiebot'],
    ['https://consent.cookiebot.eu/uc.js', 'cookiebot'],
    ['https://sdk.privacy-center.org/abc/loader.js?target=example.com', 'didomi'],
    ['https://cmp.inmobi.com/choice/p-abc/example.com/choice.js?tag_version=V3', 'quantcast-choice'],
    ['https://cmp.quantcast.com/choice/p-abc/example.com/choice.js', 'quantcast-choice'],
    ['https://consent.trustarc.com/notice?domain=example.com&c=teconsent&js=nj&noticeType=bb', 'trustarc'],
    ['https://web.cmp.usercentrics.eu/ui/loader.js', 'usercentrics'],
    ['https://app.usercentrics.eu/browser-ui/latest/loader.js', 'usercentrics'],
    ['https://cmp.osano.com/AzZ/abc/osano.js', 'osano'],
    ['https://app.termly.io/resource-blocker/abc?autoBlock=on', 'termly'],
    ['https://cdn-cookieyes.com/client_data/abc/script.js', 'cookieyes'],
    ['https://example.com/wp-content/plugins/complianz-gdpr/cookiebanner/js/complianz.min.js?ver=1', 'complianz'],
    ['https://example.com/blog/wp-content/plugins/complianz-gdpr-premium/cookiebanner/js/complianz.min.js', 'complianz'],
    ['https://example.fr/tarteaucitron/tarteaucitron.js', 'tarteaucitron'],
    ['https://cdn.jsdelivr.net/gh/AmauriC/tarteaucitron.js@1.19.0/tarteaucitron.min.js', 'tarteaucitron'],
    ['https://tarteaucitron.io/load.js?domain=example.fr&uuid=abc', 'tarteaucitron'],
    ['https://cdn.jsdelivr.net/npm/cookieconsent@3/build/cookieconsent.min.js', 'cookieconsent'],
  ];
  for (const [url, id] of loaders) {
    test(`loader ${url} → ${id}`, () => assert.equal(cmpForScriptUrl(url)?.id, id));
  }
  test('lookalike and unrelated loaders are not CMPs', () => {
    assert.equal(cmpForScriptUrl('https://cdn.cookielaw.org.example.com/otSDKStub.js'), undefined);
    assert.equal(cmpForScriptUrl('https://example.com/wp-content/plugins/complianz-gdpr-lite/x.js'), undefined);
    assert.equal(cmpForScriptUrl('https://www.google-analytics.com/analytics.js'), undefined);
    assert.equal(cmpForScriptUrl('https://example.com/js/tarteaucitron-fork.js'), undefined);
    assert.equal(cmpForScriptUrl('https://example.com/js/mycookieconsent.min.js'), undefined);
  });

  test('auto-blocking signals are recognisable', () => {
    const onetrust = CMPS.find((c) => c.id === 'onetrust');
    const signal = onetrust?.autoBlocking[0];
    assert.equal(signal?.kind, 'script-src');
    if (signal?.kind === 'script-src') {
      assert.equal(urlMatchesRule('https://cdn.cookielaw.org/consent/abc-123/OtAutoBlock.js', signal.url), true);
      assert.equal(urlMatchesRule('https://cdn.cookielaw.org/scripttemplates/otSDKStub.js', signal.url), false);
    }
    const cookiebot = CMPS.find((c) => c.id === 'cookiebot')?.autoBlocking[0];
    assert.deepEqual(cookiebot?.kind === 'element' ? cookiebot.element : undefined, { tag: 'script', attribute: 'data-blockingmode', value: 'auto' });
  });
});

describe('gating conventions', () => {
  const find = (cmp: GatingAttribute['cmp'], attribute: string): GatingAttribute => {
    const g = GATING_ATTRIBUTES.find((x) => x.cmp === cmp && x.attribute === attribute);
    assert.ok(g, `${cmp} ${attribute}`);
    return g;
  };
  const gates = (g: GatingAttribute, value: string): boolean => (g.valuePattern === undefined ? value.trim() !== '' : new RegExp(g.valuePattern).test(value));

  const cases: Array<[cmp: GatingAttribute['cmp'], attribute: string, gated: string[], notGated: string[]]> = [
    ['onetrust', 'class', ['optanon-category-C0002', 'optanon-category-C0004', 'optanon-category-C0001-C0002'], ['optanon-category-C0001', 'optanon-category']],
    ['cookiebot', 'data-cookieconsent', ['statistics', 'marketing', 'preferences', 'statistics, marketing', 'necessary, marketing'], ['ignore', 'necessary', '']],
    ['usercentrics', 'data-usercentrics', ['Google Analytics', 'Facebook Pixel'], ['', '  ']],
    ['complianz', 'data-category', ['statistics', 'marketing', 'preferences'], ['functional', '']],
    ['complianz', 'class', ['cmplz-stats', 'cmplz-script'], ['cmplz-native', 'cmplz-hidden']],
    ['termly', 'data-categories', ['analytics', 'advertising', 'essential,analytics'], ['essential']],
    ['cookieyes', 'data-cookieyes', ['cookieyes-analytics', 'cookieyes-advertisement'], ['cookieyes-necessary', 'analytics']],
    ['osano', 'data-osano', ['ANALYTICS', 'MARKETING'], ['ESSENTIAL']],
    ['didomi', 'data-vendor', ['didomi:google', 'iab:755'], ['']],
    ['iubenda', 'class', ['_iub_cs_activate', '_iub_cs_activate-inline'], ['iub_cs_activate', '_iub_cs']],
    ['generic', 'data-category', ['analytics', 'marketing'], ['necessary', 'essential', 'strictly-necessary']],
    ['generic', 'data-cookiecategory', ['analytics'], ['necessary']],
    ['generic', 'data-consent', ['marketing'], ['required']],
  ];
  for (const [cmp, attribute, gated, notGated] of cases) {
    test(`${cmp} ${attribute}`, () => {
      const g = find(cmp, attribute);
      for (const v of gated) assert.equal(gates(g, v), true, `${JSON.stringify(v)} gates`);
      for (const v of notGated) assert.equal(gates(g, v), false, `${JSON.stringify(v)} does not gate`);
    });
  }

  test('every convention names non-executable script types and an example', () => {
    assert.ok(GATING_ATTRIBUTES.length >= 15);
    for (const g of GATING_ATTRIBUTES) {
      assert.ok(g.scriptTypes.length > 0, `${g.cmp} ${g.attribute}`);
      for (const t of g.scriptTypes) assert.equal(isExecutableScriptType(t), false, t);
      assert.ok(g.example.includes(g.attribute === 'class' ? 'class=' : `${g.attribute}=`), g.example);
    }
    assert.ok(find('cookiebot', 'data-cookieconsent').deferredSrc.includes('data-cookieblock-src'));
    assert.ok(find('didomi', 'data-vendor').scriptTypes.includes('didomi/javascript'));
  });

  test('isExecutableScriptType follows the HTML standard', () => {
    for (const t of [undefined, '', ' ', 'text/javascript', 'module', 'TEXT/JavaScript; charset=utf-8', 'application/javascript', 'text/ecmascript']) {
      assert.equal(isExecutableScriptType(t), true, String(t));
    }
    for (const t of ['text/plain', 'didomi/javascript', 'text/template', 'application/ld+json', 'importmap', 'text/x-template']) {
      assert.equal(isExecutableScriptType(t), false, t);
    }
  });
});

describe('consent frameworks', () => {
  const fw = (id: string) => {
    const f = CONSENT_FRAMEWORKS.find((x) => x.id === id);
    assert.ok(f, id);
    return f;
  };
  const re = (id: string, key: string): RegExp => new RegExp(fw(id).inlinePatterns[key] ?? '(?!)', 'i');

  test('TCF, GPP, USP and Google Consent Mode are described', () => {
    assert.deepEqual(CONSENT_FRAMEWORKS.map((f) => f.id).sort(), ['google-consent-mode', 'gpp', 'tcf', 'usp']);
    assert.deepEqual(fw('tcf').locatorFrames, ['__tcfapiLocator']);
    assert.deepEqual(fw('gpp').locatorFrames, ['__gppLocator']);
    assert.deepEqual(fw('usp').locatorFrames, ['__uspapiLocator']);
    assert.equal(consentCookieOwner('euconsent-v2'), 'IAB TCF v2');
    assert.equal(consentCookieOwner('usprivacy'), 'IAB US Privacy (USP) API');
    assert.equal(consentCookieOwner('_ga'), undefined);
  });

  test('stub patterns tell the frameworks apart', () => {
    assert.ok(re('tcf', 'stub').test('window.__tcfapi = function () {}'));
    assert.ok(re('gpp', 'stub').test('window.__gpp = function () {}'));
    assert.ok(!re('gpp', 'stub').test("iframe.name = '__gppLocator'"));
    assert.ok(re('gpp', 'locator').test("iframe.name = '__gppLocator'"));
    assert.ok(re('usp', 'stub').test('if (typeof window.__uspapi !== "function")'));
  });

  test('Google Consent Mode default, denied, granted and update calls', () => {
    const snippet = `window.dataLayer = window.dataLayer || [];
      function gtag(){dataLayer.push(arguments);}
      gtag('consent', 'default', { 'ad_storage': 'denied', analytics_storage: "denied", 'wait_for_update': 500 });`;
    assert.ok(re('google-consent-mode', 'default').test(snippet));
    assert.ok(re('google-consent-mode', 'denied').test(snippet));
    assert.ok(re('google-consent-mode', 'waitForUpdate').test(snippet));
    assert.ok(!re('google-consent-mode', 'granted').test(snippet));
    assert.ok(!re('google-consent-mode', 'update').test(snippet));
    const update = `gtag("consent","update",{ad_storage:"granted"})`;
    assert.ok(re('google-consent-mode', 'update').test(update));
    assert.ok(re('google-consent-mode', 'granted').test(update));
    assert.ok(re('google-consent-mode', 'default').test(`window.dataLayer.push(['consent', 'default', {}])`));
    assert.ok(!re('google-consent-mode', 'default').test(`gtag('config', 'G-ABC123')`));
  });
});

describe('data integrity', () => {
  test('cookies.json: every entry valid, patterns compile and are anchored', () => {
    const raw = readJson('cookies.json');
    assert.ok(Array.isArray(raw));
    const entries = parseCookieCatalogue(raw);
    assert.equal(entries.length, COOKIES.length);
    assert.ok(COOKIES.length >= 300);
    const seen = new Set<string>();
    for (const e of entries) {
      assert.ok((COOKIE_CATEGORIES as readonly string[]).includes(e.category));
      assert.ok(e.vendor.trim() === e.vendor && e.vendor.length > 0);
      if (e.match === 'pattern') {
        const re = compileAnchoredPattern(e.name, e.vendor);
        assert.ok(e.name.startsWith('^') && e.name.endsWith('$'), e.name);
        assert.equal(re.test(''), false, `${e.name} matches the empty name`);
      }
      if (e.match === 'exact' && cookieNameNeedsDomain(e.name)) assert.ok(e.domains, `${e.name} needs domains`);
      if (e.match !== 'pattern') assert.ok(!REFUSAL_OR_CONSENT_NAME.test(e.name), e.name);
      const key = `${e.match}:${e.name}:${(e.domains ?? []).join(',')}`;
      assert.ok(!seen.has(key), `duplicate entry ${key}`);
      seen.add(key);
      if (e.match === 'exact') assert.ok(classifyCookie(e.name, e.domains === undefined ? undefined : { domain: e.domains[0] }), e.name);
    }
  });

  test('the short-name rule covers one- to three-character names and generic words', () => {
    for (const name of ['i', 'B', 'C', 'A3', 'mc', 'uid', 'UID', 'fr', 'IDE', 'uuid', 'sess', 'audit', 'token']) {
      assert.equal(cookieNameNeedsDomain(name), true, name);
    }
    for (const name of ['_ga', '_cb', '_fbp', 'MUID', 'bcookie', 'khaos']) assert.equal(cookieNameNeedsDomain(name), false, name);
  });

  test('bad catalogue entries are rejected with the entry named', () => {
    const ok = { match: 'exact', name: '_x_test', vendor: 'V', category: 'analytics' };
    assert.equal(parseCookieCatalogue([ok]).length, 1);
    assert.throws(() => parseCookieCatalogue([{ ...ok, match: 'pattern', name: '_x_.*' }]), /cookies\.json\[0\].*anchored/);
    assert.throws(() => parseCookieCatalogue([{ ...ok, match: 'pattern', name: '^(_x$' }]), /does not compile|anchored/);
    assert.throws(() => parseCookieCatalogue([{ ...ok, match: 'pattern', name: '^_x$|_y$' }]), /anchored/);
    assert.equal(parseCookieCatalogue([{ ...ok, match: 'pattern', name: '^_x(?:a|b)[|]$' }]).length, 1);
    assert.throws(() => parseCookieCatalogue([{ ...ok, name: 'uid' }]), /needs "domains"/);
    assert.throws(() => parseCookieCatalogue([{ ...ok, name: 'B' }]), /needs "domains"/);
    assert.throws(() => parseCookieCatalogue([{ ...ok, category: 'functional' }]), /category/);
    assert.throws(() => parseCookieCatalogue([{ ...ok, domains: ['Example.COM'] }]), /domains/);
    assert.throws(() => parseCookieCatalogue([{ ...ok, extra: 1 }]), /unknown field "extra"/);
    assert.throws(() => parseCookieCatalogue([{ ...ok, match: 'prefix', name: '_x' }]), /too short/);
    assert.throws(() => parseCookieCatalogue([{ ...ok, name: 'my_optout' }]), /refusal or consent/);
  });

  test('trackers.json: every entry valid, hosts lower-case, no duplicate rules', () => {
    const raw = readJson('trackers.json');
    const entries = parseTrackerCatalogue(raw);
    assert.equal(entries.length, TRACKERS.length);
    assert.ok(TRACKERS.length >= 100);
    const seen = new Set<string>();
    for (const e of entries) {
      assert.ok((TRACKER_CATEGORIES as readonly string[]).includes(e.category));
      assert.ok(e.host !== undefined || (e.paths?.length ?? 0) > 0);
      if (e.host !== undefined) assert.equal(e.host, e.host.toLowerCase());
      for (const p of e.paths ?? []) compilePathGlob(p);
      const key = `${e.host ?? '*'}${(e.paths ?? []).join(',')}`;
      assert.ok(!seen.has(key), `duplicate rule ${key}`);
      seen.add(key);
    }
    assert.throws(() => parseTrackerCatalogue([{ vendor: 'V', category: 'analytics' }]), /without host needs paths/);
    assert.throws(() => parseTrackerCatalogue([{ host: 'Example.com', vendor: 'V', category: 'analytics' }]), /bad host/);
    assert.throws(() => parseTrackerCatalogue([{ host: 'example.com', vendor: 'V', category: 'functional' }]), /category/);
    assert.throws(() => parseTrackerCatalogue([{ host: 'example.com', paths: ['x'], vendor: 'V', category: 'analytics' }]), /must start with/);
  });

  test('cmps.json: every element pattern and framework pattern compiles', () => {
    const raw = readJson('cmps.json') as { cmps: unknown[]; frameworks: unknown[]; gating: unknown[] };
    assert.equal(raw.cmps.length, CMP_IDS.length);
    for (const cmp of CMPS) {
      const matchers = [
        ...cmp.banner.injected,
        ...(cmp.banner.placeholders ?? []),
        ...Object.values(cmp.banner.static ?? {}).flatMap((v) => (Array.isArray(v) && typeof v[0] === 'object' ? v : [])),
        ...[...cmp.staticSignals, ...cmp.autoBlocking].flatMap((s) => (s.kind === 'element' ? [s.element] : [])),
      ];
      for (const m of matchers) if (typeof m === 'object' && m.valuePattern !== undefined) compileAnchoredPattern(m.valuePattern, cmp.id);
      for (const g of cmp.gating) assert.equal(g.cmp, cmp.id);
    }
    for (const f of CONSENT_FRAMEWORKS) for (const source of Object.values(f.inlinePatterns)) new RegExp(source, 'i');
  });
});
