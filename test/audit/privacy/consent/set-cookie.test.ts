// Cookie names from Set-Cookie headers and from inline scripts' cookie writes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSetCookie, scriptCookieWrites } from '../../../../src/audit/privacy/consent/set-cookie.ts';

describe('parseSetCookie', () => {
  const cases: Array<[header: string, expected: ReturnType<typeof parseSetCookie>]> = [
    ['_ga=GA1.2.3; Domain=.Example.com; Path=/', [{ name: '_ga', domain: 'example.com', deletes: false }]],
    [' _gid = 1 ; path=/', [{ name: '_gid', deletes: false }]],
    ['sid=abc', [{ name: 'sid', deletes: false }]],
    ['_ga=; Max-Age=0; Path=/', [{ name: '_ga', deletes: true }]],
    ['_ga=; Max-Age=-1', [{ name: '_ga', deletes: true }]],
    ['x=1; Expires=Thu, 01-Jan-1970 00:00:01 GMT', [{ name: 'x', deletes: true }]],
    ['x=1; Max-Age=3600; Expires=Wed, 21 Oct 2026 07:28:00 GMT', [{ name: 'x', deletes: false }]],
    ['a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, _fbp=fb.1; Path=/', [{ name: 'a', deletes: false }, { name: '_fbp', deletes: false }]],
    ['a=1; Domain=; Domain=.x.org', [{ name: 'a', domain: 'x.org', deletes: false }]],
    ['noequals', []],
    ['=value', []],
    ['', []],
  ];
  for (const [header, expected] of cases) {
    test(JSON.stringify(header), () => assert.deepEqual(parseSetCookie(header), expected));
  }

  test('a huge folded header stays bounded', () => {
    assert.equal(parseSetCookie(Array.from({ length: 10_000 }, (_, i) => `c${i}=1`).join(', ')).length, 50);
  });
});

describe('scriptCookieWrites', () => {
  const names = (content: string): string[] => scriptCookieWrites(content).map((w) => w.name);
  const cases: Array<[script: string, expected: string[]]> = [
    ['document.cookie = "_ga=GA1.2." + cid + "; path=/";', ['_ga']],
    ["document.cookie='_fbp=' + v + ';path=/';", ['_fbp']],
    ['document.cookie = `_gcl_au=${v}; path=/`;', ['_gcl_au']],
    ['document.cookie = "_gcl_aw" + "=" + v;', ['_gcl_aw']],
    ['document .cookie= ( "theme=dark")', ['theme']],
    ['Cookies.set("_ga", "x", { expires: 365 });', ['_ga']],
    ['$.cookie("_fbp", v, { path: "/" });', ['_fbp']],
    // Not writes with a literal name, or not writes at all.
    ['document.cookie = name + "=" + value;', []],
    ['if (document.cookie == "_ga=1") {}', []],
    ['var c = document.cookie; $.cookie("_fbp");', []],
    ['document.cookie = "test").indexOf', []],
    // Deletions.
    ['document.cookie = "_ga=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/";', []],
    ["document.cookie = '_gid=; max-age=0; path=/';", []],
    ['Cookies.set("_ga", "", { expires: -1 });', []],
    ['a=1,document.cookie="_gid=1;max-age=0",document.cookie="_gat=1"', ['_gat']],
  ];
  for (const [script, expected] of cases) {
    test(JSON.stringify(script), () => assert.deepEqual(names(script), expected));
  }

  test('offsets follow the script text', () => {
    const writes = scriptCookieWrites('x();\ndocument.cookie="_a=1";\nCookies.set("_b", 1);');
    assert.deepEqual(writes.map((w) => w.name), ['_a', '_b']);
    assert.ok(writes[0]!.offset < writes[1]!.offset);
  });
});
