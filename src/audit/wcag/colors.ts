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
