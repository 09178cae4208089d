// Text from the network (URLs, selectors, snippets, the service's error text) made safe for one
// line of a terminal or a CI log: nothing printed through it can move the cursor, recolour the
// screen, ring the bell, split a line or reorder what is shown. Reports keep the raw text (JSON
// escapes it, the XML writer drops what XML cannot hold); only what is printed goes through here.
// The characters that act on how the text around them is shown (the same set the service's own
// CLI escapes, src/unsafe-text.ts): C0 and C1 controls with DEL, the bidirectional marks,
// embeddings, overrides and isolates, the line and paragraph separators. The backslash too, so an
// escape in the output is never ambiguous with the text itself.
const TO_ESCAPE = /[\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const hex = (character: string, digits: number) => character.codePointAt(0)!.toString(16).padStart(digits, '0');

/** Text safe for one line of a terminal: `\t`, `\n`, `\r`, `\\`, `\x1b` for other controls, `\u202e` beyond. */
export function terminalText(text: string): string {
  return text.replace(TO_ESCAPE, (character) => NAMED[character] ?? (character < '\u0100' ? `\\x${hex(character, 2)}` : `\\u${hex(character, 4)}`));
}
