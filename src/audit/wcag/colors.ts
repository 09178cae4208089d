// Colours for the contrast rule: CSS colour strings parsed by color-string, alpha compositing and
// WCAG's relative luminance and contrast ratio.
import colorString from 'color-string';

export type Rgba = readonly [number, number, number, number];

export const WHITE: Rgba = [255, 255, 255, 1];
export const BLACK: Rgba = [0, 0, 0, 1];

/** Parses a CSS colour; undefined for what needs context (currentcolor, system colours, var()). */
export function parseColor(value: string): Rgba | undefined {
  const rgba = colorString.get.rgb(value.trim()) as number[] | null;
  return rgba === null ? undefined : [rgba[0]!, rgba[1]!, rgba[2]!, rgba[3] ?? 1];
}

/** `top` painted over the opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function luminance(c: Rgba): number {
  return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
}

export function contrastRatio(a: Rgba, b: Rgba): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * HTML's "rules for parsing a legacy colour value" (HTML Living Standard §2.3.6), for the colour
 * attributes that are presentational hints (`bgcolor`, `text`, `link`, `<font color>`): named
 * colours, `#rgb`, and anything else read as hex digits three ways, so `chucknorris` is #c00000.
 * Undefined where the algorithm fails (empty, `transparent`).
 */
export function parseLegacyColor(value: string): Rgba | undefined {
  let input = value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (input === '' || input.toLowerCase() === 'transparent') return undefined;
  if (/^[a-z]+$/i.test(input)) {
    const named = colorString.get.rgb(input.toLowerCase()) as number[] | null;
    if (named !== null) return [named[0]!, named[1]!, named[2]!, 1];
  }
  if (/^#[0-9a-f]{3}$/i.test(input)) {
    const digit = (i: number) => Number.parseInt(input[i]!, 16) * 17;
    return [digit(1), digit(2), digit(3), 1];
  }
  // Characters outside the basic multilingual plane count as "00"; at most 128 characters.
  input = Array.from(input, (c) => (c.length > 1 ? '00' : c)).join('').slice(0, 128);
  if (input.startsWith('#')) input = input.slice(1);
  input = input.replace(/[^0-9a-f]/gi, '0');
  while (input.length === 0 || input.length % 3 !== 0) input += '0';
  let length = input.length / 3;
  let parts = [input.slice(0, length), input.slice(length, 2 * length), input.slice(2 * length)];
  if (length > 8) {
    parts = parts.map((p) => p.slice(length - 8));
    length = 8;
  }
  while (length > 2 && parts.every((p) => p[0] === '0')) {
    parts = parts.map((p) => p.slice(1));
    length--;
  }
  if (length > 2) parts = parts.map((p) => p.slice(0, 2));
  const [r, g, b] = parts.map((p) => Number.parseInt(p, 16));
  return [r!, g!, b!, 1];
}

/** A colour as `#rrggbb` (opaque colours only: what a legacy colour attribute yields). */
export function toHex(c: Rgba): string {
  return `#${[c[0], c[1], c[2]].map((n) => Math.round(n).toString(16).padStart(2, '0')).join('')}`;
}
