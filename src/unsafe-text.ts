// Characters that act on how the text around them is shown instead of being shown: the controls
// (C0 with tab and newline, DEL, C1), which break line- and tab-separated output and drive a
// terminal (escape sequences, bell); the bidirectional controls (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069), which reorder what is displayed ("invoice \u202Efdp.exe" reads
// "invoice exe.pdf"); and the line and paragraph separators. Labels refuse them; the CLI escapes
// them in any stored text it prints.
export const DISRUPTIVE_CHARACTER = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** `U+202E`, as the Unicode standard names a code point. */
export function codePointName(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
