// The CLI's escaping of stored text, character by character (the CLI suites show it end to end).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { terminalJson, terminalText } from '../../src/cli/terminal-text.ts';

const cases: [name: string, stored: string, printed: string][] = [
  ['plain ASCII', 'ci pipeline', 'ci pipeline'],
  ['letters of other scripts, emoji with joiners, a no-break space', 'Zoë 東京 عربي 👩‍💻 🇫🇷\u00a0x', 'Zoë 東京 عربي 👩‍💻 🇫🇷\u00a0x'],
  ['zero-width space and narrow no-break space (not controls)', 'a\u200bb\u202fc', 'a\u200bb\u202fc'],
  ['tilde, just below DEL', '~', '~'],
  ['backslash', 'C:\\keys', 'C:\\\\keys'],
  ['tab, newline, carriage return', 'a\tb\nc\rd', 'a\\tb\\nc\\rd'],
  ['escape sequence and bell', '\u001b[2J\u0007', '\\x1b[2J\\x07'],
  ['NUL and DEL', '\u0000\u007f', '\\x00\\x7f'],
  ['C1 controls', '\u0080\u009b\u009f', '\\x80\\x9b\\x9f'],
  ['bidi overrides, isolates and marks', '\u202a\u202e\u2066\u2069\u200e\u200f\u061c', '\\u202a\\u202e\\u2066\\u2069\\u200e\\u200f\\u061c'],
  ['line and paragraph separators', '\u2028\u2029', '\\u2028\\u2029'],
];

for (const [name, stored, printed] of cases) {
  test(`terminalText: ${name}`, () => {
    assert.equal(terminalText(stored), printed);
  });
  test(`terminalJson: ${name} parses back unchanged, with nothing raw a terminal acts on`, () => {
    const json = terminalJson({ label: stored });
    assert.deepEqual(JSON.parse(json), { label: stored });
    assert.doesNotMatch(json.replaceAll('\n', ''), /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });
}
