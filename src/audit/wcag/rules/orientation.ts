// ACT b33eff: the page is not locked to one orientation by rotating content a quarter turn in
// an `(orientation: portrait|landscape)` media query. The rotation under the query is compared
// with the element's unconditional rotation.
import type { Element } from 'domhandler';
import type { WcagContext } from '../context.ts';
import { CSS_TOO_LARGE, UNKNOWN } from '../styles.ts';
import { cantTell, failed, passed, type RuleResult, type WcagRule } from './rule.ts';

const ANGLE = /(-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?)(deg|rad|grad|turn)?/;

function degrees(value: string): number | undefined {
  const m = ANGLE.exec(value.trim());
  if (m === null) return undefined;
  const n = Number(m[1]);
  switch (m[2]) {
    case 'rad':
      return (n * 180) / Math.PI;
    case 'grad':
      return n * 0.9;
    case 'turn':
      return n * 360;
    case 'deg':
      return n;
    default:
      return n === 0 ? 0 : undefined;
  }
}

/** Rotation about the Z axis, in degrees, of a `transform` or `rotate` value; 0 when it has none; undefined when unreadable. */
export function rotationOf(property: string, value: string): number | undefined {
  if (value === 'none' || value === '') return 0;
  if (property === 'rotate') {
    const parts = value.trim().split(/\s+/);
    const angle = degrees(parts[parts.length - 1]!);
    if (parts.length === 1 || parts[0] === 'z') return angle;
    if (parts.length === 4 && Number(parts[0]) === 0 && Number(parts[1]) === 0) return angle;
    return parts.length === 2 ? 0 : undefined;
  }
  let total = 0;
  for (const m of value.matchAll(/([a-z0-9]+)\(([^)]*)\)/g)) {
    const fn = m[1]!;
    const args = m[2]!.split(',').map((a) => a.trim());
    if (fn === 'rotate' || fn === 'rotatez') {
      const d = degrees(args[0]!);
      if (d === undefined) return undefined;
      total += d;
    } else if (fn === 'rotate3d') {
      if (args.length !== 4 || Number(args[0]) !== 0 || Number(args[1]) !== 0) continue;
      const d = degrees(args[3]!);
      if (d === undefined) return undefined;
      total += Number(args[2]) < 0 ? -d : d;
    } else if (fn === 'matrix' || fn === 'matrix3d') {
      const a = Number(args[0]);
      const b = Number(args[1]);
      if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
      total += (Math.atan2(b, a) * 180) / Math.PI;
    }
  }
  return total;
}

/** Whether a turn of `delta` degrees is a quarter turn (90° or 270°, give or take a degree). */
function quarterTurn(delta: number): boolean {
  const mod = ((delta % 180) + 180) % 180;
  return Math.abs(mod - 90) < 1;
}

function unconditionalRotation(ctx: WcagContext, el: Element): number | undefined {
  let total = 0;
  for (const property of ['transform', 'rotate']) {
    const c = ctx.styles.unconditional(el, property);
    if (c === UNKNOWN) return undefined;
    if (c === undefined) continue;
    const r = rotationOf(property, c.value);
    if (r === undefined) return undefined;
    total += r;
  }
  return total;
}

export const orientationLock: WcagRule = {
  id: 'css-orientation-lock',
  actRules: ['b33eff'],
  criteria: ['1.3.4'],
  applicability: 'A visible element rotated (transform or rotate) by a rule inside an orientation media query.',
  expectation: 'The rotation does not turn it a quarter turn relative to the other orientation.',
  *evaluate(ctx) {
    const results = new Map<Element, RuleResult>();
    // Past the page's budget of selector matches, which elements a rule rotates is not known.
    let cut = false;
    rules: for (const rule of ctx.styles.conditional) {
      if (!/\(\s*orientation\s*:\s*(?:portrait|landscape)\s*\)/.test(rule.media)) continue;
      const rotations = rule.declarations.filter((d) => (d.property === 'transform' || d.property === 'rotate') && /rotate|matrix|^-?[\d.]/.test(d.value));
      if (rotations.length === 0) continue;
      for (const el of ctx.elements) {
        if (results.get(el)?.outcome === 'failed') continue;
        const matches = rule.match(el);
        if (matches === undefined) {
          cut = true;
          break rules;
        }
        if (!matches || ctx.isVisible(el) === false) continue;
        const base = unconditionalRotation(ctx, el);
        for (const d of rotations) {
          const turned = rotationOf(d.property, d.value);
          if (turned === undefined || base === undefined) continue;
          const delta = d.property === 'rotate' ? turned : turned - base;
          results.set(el, quarterTurn(delta) ? failed(el, `rotated ${Math.round(delta)}° in one orientation only`) : passed(el));
        }
      }
    }
    yield* results.values();
    if (cut) yield cantTell(null, CSS_TOO_LARGE);
  },
};
