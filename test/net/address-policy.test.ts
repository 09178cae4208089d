import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkTargetUrl,
  createAddressPolicy,
  parseCidrList,
  parseStaticResolve,
} from '../../src/net/address-policy.ts';

const strict = createAddressPolicy([]);
const loopbackAllowed = createAddressPolicy(parseCidrList('127.0.0.0/8'));

type Expect = 'ok' | 'bad-url' | 'blocked-address';

// [raw URL, expected outcome with no allow-list, why the row exists]
const URL_TABLE: [string, Expect, string][] = [
  // IPv4 loopback in every spelling WHATWG URL normalises
  ['https://127.0.0.1/', 'blocked-address', 'dotted loopback'],
  ['https://2130706433/', 'blocked-address', 'decimal integer'],
  ['https://0177.0.0.1/', 'blocked-address', 'octal first part'],
  ['https://0x7f.1/', 'blocked-address', 'hex, two parts'],
  ['https://0x7f000001/', 'blocked-address', 'hex integer'],
  ['https://127.1/', 'blocked-address', 'short form'],
  ['https://127.000.000.001/', 'blocked-address', 'zero padded'],
  ['https://１２７.０.０.１/', 'blocked-address', 'fullwidth digits'],
  ['https://127.0.0.1./', 'blocked-address', 'trailing dot'],
  ['https://%31%32%37.0.0.1/', 'blocked-address', 'percent-encoded host'],
  ['https:127.0.0.1', 'blocked-address', 'no slashes'],
  ['https:/127.0.0.1/', 'blocked-address', 'one slash'],
  ['https://127.0.0.1:8443/x', 'blocked-address', 'with port'],
  // IPv4 special-purpose ranges
  ['https://0.0.0.0/', 'blocked-address', '0/8'],
  ['https://10.1.2.3/', 'blocked-address', '10/8'],
  ['https://100.64.0.1/', 'blocked-address', '100.64/10 CGNAT'],
  ['https://100.127.255.254/', 'blocked-address', '100.64/10 upper end'],
  ['https://169.254.169.254/', 'blocked-address', 'link-local / cloud metadata'],
  ['https://172.16.0.1/', 'blocked-address', '172.16/12'],
  ['https://172.31.255.255/', 'blocked-address', '172.16/12 upper end'],
  ['https://192.0.0.170/', 'blocked-address', '192.0.0/24'],
  ['https://192.0.2.1/', 'blocked-address', 'TEST-NET-1'],
  ['https://192.88.99.1/', 'blocked-address', '6to4 relay anycast'],
  ['https://192.168.1.1/', 'blocked-address', '192.168/16'],
  ['https://198.18.0.1/', 'blocked-address', 'benchmarking 198.18/15'],
  ['https://198.19.255.255/', 'blocked-address', 'benchmarking upper end'],
  ['https://198.51.100.7/', 'blocked-address', 'TEST-NET-2'],
  ['https://203.0.113.9/', 'blocked-address', 'TEST-NET-3'],
  ['https://224.0.0.1/', 'blocked-address', 'multicast'],
  ['https://239.255.255.250/', 'blocked-address', 'multicast SSDP'],
  ['https://240.0.0.1/', 'blocked-address', 'reserved 240/4'],
  ['https://255.255.255.255/', 'blocked-address', 'limited broadcast'],
  // IPv6 forms
  ['https://[::1]/', 'blocked-address', 'IPv6 loopback'],
  ['https://[::]/', 'blocked-address', 'unspecified'],
  ['https://[0:0:0:0:0:0:0:1]/', 'blocked-address', 'long loopback'],
  ['https://[::ffff:127.0.0.1]/', 'blocked-address', 'IPv4-mapped, dotted'],
  ['https://[::ffff:7f00:1]/', 'blocked-address', 'IPv4-mapped, hex'],
  ['https://[::ffff:a00:1]/', 'blocked-address', 'IPv4-mapped 10.0.0.1'],
  ['https://[::127.0.0.1]/', 'blocked-address', 'IPv4-compatible'],
  ['https://[64:ff9b::a00:1]/', 'blocked-address', 'NAT64 of 10.0.0.1'],
  ['https://[64:ff9b::808:808]/', 'blocked-address', 'NAT64 of a public address: still the NAT64 block'],
  ['https://[64:ff9b:1::a00:1]/', 'blocked-address', 'local-use NAT64'],
  ['https://[2002:7f00:1::]/', 'blocked-address', '6to4 of 127.0.0.1'],
  ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'blocked-address', 'Teredo (client IPv4 XOR-obfuscated)'],
  ['https://[2001:2::1]/', 'blocked-address', '2001::/23 benchmarking'],
  ['https://[2001:20::1]/', 'blocked-address', '2001::/23 ORCHIDv2'],
  ['https://[2001:db8::1]/', 'blocked-address', 'documentation'],
  ['https://[3fff::1]/', 'blocked-address', 'documentation 3fff::/20'],
  ['https://[5f00::1]/', 'blocked-address', 'SRv6 SIDs'],
  ['https://[100::1]/', 'blocked-address', 'discard-only'],
  ['https://[fc00::1]/', 'blocked-address', 'unique-local fc00::/7'],
  ['https://[fd12:3456:789a::1]/', 'blocked-address', 'unique-local fd'],
  ['https://[fe80::1]/', 'blocked-address', 'link-local'],
  ['https://[fec0::1]/', 'blocked-address', 'site-local'],
  ['https://[ff02::1]/', 'blocked-address', 'multicast'],
  ['https://[4000::1]/', 'blocked-address', 'outside 2000::/3'],
  ['https://[fe80::1%25eth0]/', 'bad-url', 'zone id (WHATWG URL refuses it)'],
  // userinfo and parser-differential tricks
  ['https://public.example@127.0.0.1/', 'bad-url', 'userinfo'],
  ['https://user:pass@example.com/', 'bad-url', 'user and password'],
  ['https://:secret@example.com/', 'bad-url', 'password only'],
  ['https://127.0.0.1#@public.example/', 'blocked-address', 'fragment hides @'],
  ['https://127.0.0.1\\@public.example', 'blocked-address', 'backslash is a slash'],
  ['https://127.0.0.1\\\\public.example/', 'blocked-address', 'double backslash'],
  ['https://127.0.0.1\t/', 'bad-url', 'tab'],
  ['https://exa\nmple.com/', 'bad-url', 'newline inside host'],
  ['https://example.com/\r\nX-Injected: 1', 'bad-url', 'CRLF'],
  ['http://example.com/', 'bad-url', 'http'],
  ['ftp://example.com/', 'bad-url', 'ftp'],
  ['file:///etc/passwd', 'bad-url', 'file'],
  ['javascript:alert(1)', 'bad-url', 'javascript'],
  ['//example.com/', 'bad-url', 'scheme-relative'],
  ['example.com', 'bad-url', 'no scheme'],
  ['', 'bad-url', 'empty'],
  ['https://', 'bad-url', 'no host'],
  [`https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`, 'bad-url', '2049 characters'],
  // names that are local by definition
  ['https://localhost/', 'blocked-address', 'localhost'],
  ['https://LOCALHOST./', 'blocked-address', 'upper case, trailing dot'],
  ['https://ｌｏｃａｌｈｏｓｔ/', 'blocked-address', 'fullwidth localhost'],
  ['https://a.localhost/', 'blocked-address', '*.localhost'],
  ['https://intranet/', 'blocked-address', 'single label'],
  ['https://intranet./', 'blocked-address', 'single label, trailing dot'],
  ['https://foo.internal/', 'blocked-address', '*.internal'],
  ['https://foo.internal./', 'blocked-address', '*.internal, trailing dot'],
  ['https://printer.local/', 'blocked-address', '*.local'],
  ['https://router.home.arpa/', 'blocked-address', 'home.arpa'],
  // public, must pass
  ['https://example.com/', 'ok', 'plain name'],
  ['HTTPS://EXAMPLE.COM/Path?q=1#f', 'ok', 'upper-case scheme and host'],
  ['https://example.com./', 'ok', 'FQDN with trailing dot'],
  ['https://bücher.example/', 'ok', 'IDN'],
  ['https://127.0.0.1.nip.io/', 'ok', 'name that merely looks like an IP: judged at DNS time'],
  ['https://93.184.215.14/', 'ok', 'public IPv4'],
  ['https://8.8.8.8:8443/x', 'ok', 'public IPv4 with port'],
  ['https://172.32.0.1/', 'ok', 'just above 172.16/12'],
  ['https://100.128.0.1/', 'ok', 'just above 100.64/10'],
  ['https://198.20.0.1/', 'ok', 'just above 198.18/15'],
  ['https://223.255.255.255/', 'ok', 'just below multicast'],
  ['https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/', 'ok', 'public IPv6'],
  ['https://[2a00:1450:4001::1]/', 'ok', 'public IPv6 (2a00)'],
  [`https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`, 'ok', 'exactly 2048 characters'],
];

describe('checkTargetUrl without allow-list', () => {
  for (const [raw, expected, why] of URL_TABLE) {
    test(`${why}: ${JSON.stringify(raw.length > 80 ? `${raw.slice(0, 40)}…` : raw)} → ${expected}`, () => {
      const result = checkTargetUrl(raw, strict);
      if (expected === 'ok') {
        assert.equal(result.ok, true, result.ok ? '' : result.message);
      } else {
        assert.equal(result.ok, false);
        if (!result.ok) {
          assert.equal(result.reason, expected);
          assert.ok(result.message.length > 0 && result.message.length < 200);
        }
      }
    });
  }
});

// [raw URL, policy, expected]
const ALLOW_TABLE: [string, string, Expect][] = [
  ['https://127.0.0.1/', '127.0.0.0/8', 'ok'],
  ['https://2130706433/', '127.0.0.0/8', 'ok'],
  ['https://127.1:8443/', '127.0.0.0/8', 'ok'],
  ['https://[::ffff:127.0.0.1]/', '127.0.0.0/8', 'ok'],
  ['https://127.0.0.2/', '127.0.0.1/32', 'blocked-address'],
  ['https://127.0.0.1/', '127.0.0.1', 'ok'],
  ['https://10.0.0.1/', '127.0.0.0/8', 'blocked-address'],
  ['https://[::1]/', '127.0.0.0/8', 'blocked-address'],
  ['https://[::1]/', '::1/128', 'ok'],
  ['https://[fd00::1]/', '10.0.0.0/8, fd00::/8', 'ok'],
  ['https://10.9.8.7/', '10.0.0.0/8, fd00::/8', 'ok'],
  ['https://[64:ff9b::a00:1]/', '10.0.0.0/8', 'blocked-address'],
  ['https://[64:ff9b::a00:1]/', '64:ff9b::/96', 'blocked-address'], // the embedded 10.0.0.1 is still refused
  ['https://[64:ff9b::a00:1]/', '64:ff9b::/96,10.0.0.0/8', 'ok'],
  // names are refused even when their address would be allowed
  ['https://localhost/', '127.0.0.0/8', 'blocked-address'],
  ['https://a.localhost/', '127.0.0.0/8', 'blocked-address'],
  ['https://LOCALHOST./', '127.0.0.0/8', 'blocked-address'],
  ['https://intranet/', '0.0.0.0/0', 'blocked-address'],
  ['https://foo.internal/', '0.0.0.0/0', 'blocked-address'],
  ['https://printer.local/', '0.0.0.0/0', 'blocked-address'],
];

describe('checkTargetUrl with AUDIT_ALLOW_PRIVATE_NETWORKS', () => {
  for (const [raw, allow, expected] of ALLOW_TABLE) {
    test(`${raw} with ${allow} → ${expected}`, () => {
      const result = checkTargetUrl(raw, createAddressPolicy(parseCidrList(allow)));
      assert.equal(result.ok ? 'ok' : result.reason, expected);
    });
  }
});

// DNS answers and static mappings are judged by isPublicOrAllowed directly.
const ANSWER_TABLE: [string, boolean, boolean][] = [
  // [answer, allowed with no allow-list, allowed with 127.0.0.0/8]
  ['93.184.215.14', true, true],
  ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', true, true],
  ['127.0.0.1', false, true],
  ['127.255.255.254', false, true],
  ['::ffff:127.0.0.1', false, true],
  ['::ffff:7f00:1', false, true],
  ['::1', false, false],
  ['10.0.0.1', false, false],
  ['fe80::1%eth0', false, false],
  ['::ffff:169.254.169.254', false, false],
  ['2002:a00:1::1', false, false],
  ['0177.0.0.1', false, false], // not an address as far as DNS answers go: refuse, never guess
  ['2130706433', false, false],
  ['not-an-ip', false, false],
  ['', false, false],
];

describe('isPublicOrAllowed on resolved addresses', () => {
  for (const [ip, plain, withLoopback] of ANSWER_TABLE) {
    test(`${JSON.stringify(ip)} → ${plain} / with 127.0.0.0/8 → ${withLoopback}`, () => {
      assert.equal(strict.isPublicOrAllowed(ip), plain);
      assert.equal(loopbackAllowed.isPublicOrAllowed(ip), withLoopback);
    });
  }

  test('describe names the range or the allow-list entry', () => {
    assert.match(strict.describe('127.0.0.1'), /loopback.*127\.0\.0\.0\/8/);
    assert.match(strict.describe('::ffff:10.1.1.1'), /10\.1\.1\.1.*private-use/);
    assert.match(strict.describe('2001:0:4136:e378:8000:63bf:80ff:fffe'), /Teredo/);
    assert.match(strict.describe('64:ff9b::a00:1'), /NAT64/);
    assert.match(strict.describe('8.8.8.8'), /public/);
    assert.match(loopbackAllowed.describe('127.0.0.1'), /allowed by .*127\.0\.0\.0\/8/);
  });
});

describe('parseCidrList', () => {
  const valid: [string, string[]][] = [
    ['', []],
    ['  ', []],
    ['127.0.0.0/8', ['127.0.0.0/8']],
    [' 10.0.0.0/8 , fd00::/8 ,', ['10.0.0.0/8', 'fd00::/8']],
    ['127.0.0.1', ['127.0.0.1']],
    ['::1', ['::1']],
    ['0.0.0.0/0', ['0.0.0.0/0']],
  ];
  for (const [input, texts] of valid) {
    test(`accepts ${JSON.stringify(input)}`, () => {
      const list = parseCidrList(input);
      assert.deepEqual(list.map((c) => c.text), texts);
    });
  }
  test('a bare address is a host route', () => {
    const [v4] = parseCidrList('127.0.0.1');
    const [v6] = parseCidrList('::1');
    assert.equal(v4?.range[1], 32);
    assert.equal(v6?.range[1], 128);
  });

  const invalid = ['nope', '10.0.0.0/33', '::/129', '10.0.0.0/abc', '10.0.0.0/', '/8', '0177.0.0.1/8', '10.1/8', 'fe80::1%eth0/64', '::ffff:127.0.0.1/128', '10.0.0.0/8/8', '10.0.0.0/-1'];
  for (const input of invalid) {
    test(`rejects ${JSON.stringify(input)} naming the entry`, () => {
      assert.throws(() => parseCidrList(`10.0.0.0/8,${input}`), (err: Error) => err.message.includes(JSON.stringify(input)));
    });
  }
});

describe('parseStaticResolve', () => {
  const valid: [string, [string, string[]][]][] = [
    ['', []],
    ['fixture.test=127.0.0.1', [['fixture.test', ['127.0.0.1']]]],
    ['Fixture.Test=127.0.0.1, fixture.test=::1', [['fixture.test', ['127.0.0.1', '::1']]]],
    ['a.test=1.2.3.4,a.test=1.2.3.4', [['a.test', ['1.2.3.4']]]],
    ['v6.test=2001:db8::1,v4.test=10.0.0.1', [['v6.test', ['2001:db8::1']], ['v4.test', ['10.0.0.1']]]],
    ['dot.test.=10.0.0.1', [['dot.test', ['10.0.0.1']]]],
    ['bücher.test=10.0.0.1', [['xn--bcher-kva.test', ['10.0.0.1']]]],
  ];
  for (const [input, entries] of valid) {
    test(`accepts ${JSON.stringify(input)}`, () => {
      assert.deepEqual([...parseStaticResolve(input)], entries);
    });
  }

  const invalid = ['noequals', '=1.2.3.4', 'host.test=', 'host.test=[::1]', 'host.test=0177.0.0.1', 'host.test=not-an-ip', '1.2.3.4=5.6.7.8', 'host.test:443=1.2.3.4', 'host.test=1.2.3.4:443', 'host.test=fe80::1%eth0'];
  for (const input of invalid) {
    test(`rejects ${JSON.stringify(input)}`, () => {
      assert.throws(() => parseStaticResolve(input), (err: Error) => err.message.includes(JSON.stringify(input)));
    });
  }
});
