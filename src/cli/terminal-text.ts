// What the CLI prints goes to an operator's terminal, and some of it was typed by others (key
// labels made in the dashboard, stored before labels were checked) or came from the database as it
// is. Every stored text is printed through these, so no byte of it can move the cursor, recolour
// the screen, ring the bell, split a tab-separated line or reorder what is shown.
import { DISRUPTIVE_CHARACTER } from '../unsafe-text.ts';

/** The backslash too, so that an escape in the output is never ambiguous with the text itself. */
const TO_ESCAPE = new RegExp(`\\\\|${DISRUPTIVE_CHARACTER.source}`, 'gu');
const NAMED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const hex = (character: string, digits: number) => character.codePointAt(0)!.toString(16).padStart(digits, '0');

/** Text for a line of plain output: `\t`, `\n`, `\r`, `\\`, `\x1b` for other controls, `\u202e` beyond. */
export function terminalText(text: string): string {
  return text.replace(TO_ESCAPE, (character) => NAMED[character] ?? (character < '\u0100' ? `\\x${hex(character, 2)}` : `\\u${hex(character, 4)}`));
}

/** Characters JSON.stringify leaves raw (DEL, C1, the bidi controls, the separators). */
const RAW_IN_JSON = new RegExp(`(?![\\u0000-\\u001f])${DISRUPTIVE_CHARACTER.source}`, 'gu');

/** Indented JSON whose values parse back unchanged, with every disruptive character as a \u escape. */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(RAW_IN_JSON, (character) => `\\u${hex(character, 4)}`);
}
