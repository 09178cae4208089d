// ACT b4f0c3: a viewport `<meta>` does not stop users zooming (user-scalable=no, or a
// maximum-scale below 2).
import { failed, passed, type WcagRule } from './rule.ts';

function pairs(content: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of content.split(/[,;]/)) {
    const [key, value] = part.split('=');
    if (key === undefined) continue;
    out.set(key.trim().toLowerCase(), (value ?? '').trim().toLowerCase());
  }
  return out;
}

export const metaViewport: WcagRule = {
  id: 'meta-viewport-zoom',
  actRules: ['b4f0c3'],
  criteria: ['1.4.4'],
  applicability: 'The `content` of a `<meta name="viewport">` that sets `maximum-scale` or `user-scalable`.',
  expectation: '`user-scalable` is not `no` (nor a number between -1 and 1) and `maximum-scale` is not below 2.',
  *evaluate(ctx) {
    for (const meta of ctx.tagged('meta')) {
      if ((meta.attribs.name ?? '').trim().toLowerCase() !== 'viewport' || meta.attribs.content === undefined) continue;
      const values = pairs(meta.attribs.content);
      const scalable = values.get('user-scalable');
      const maximum = values.get('maximum-scale');
      if (scalable === undefined && maximum === undefined) continue;
      const problems: string[] = [];
      if (scalable !== undefined && !['yes', 'device-width', 'device-height'].includes(scalable)) {
        const n = Number.parseFloat(scalable);
        if (Number.isNaN(n) || (n > -1 && n < 1)) problems.push(`user-scalable=${scalable}`);
      }
      if (maximum !== undefined && maximum !== 'device-width' && maximum !== 'device-height') {
        // Not a number ("yes", garbage) translates to a tiny scale: zoom is blocked.
        const n = Number.parseFloat(maximum);
        if (Number.isNaN(n) || (n >= 0 && n < 2)) problems.push(`maximum-scale=${maximum}`);
      }
      yield problems.length === 0 ? passed(meta) : failed(meta, `zoom is restricted (${problems.join(', ')})`);
    }
  },
};
