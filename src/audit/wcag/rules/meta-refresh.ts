// ACT bc659a: the first valid `<meta http-equiv="refresh">` redirects or reloads at once, or
// after more than 20 hours (the WCAG 2.2.1 exception).
import { failed, passed, type WcagRule } from './rule.ts';

/** The time of a refresh content value per HTML's shared declarative refresh steps; undefined when invalid. */
export function refreshTime(content: string): number | undefined {
  const match = /^[\t\n\f\r ]*(\d+)(?:\.[\d.]*)?(?:[\t\n\f\r ;,]|$)/.exec(content) ?? /^[\t\n\f\r ]*\.[\d.]*(?:[\t\n\f\r ;,]|$)/.exec(content);
  if (match === null) return undefined;
  return match[1] === undefined ? 0 : Number.parseInt(match[1], 10);
}

export const metaRefresh: WcagRule = {
  id: 'meta-refresh',
  actRules: ['bc659a'],
  criteria: ['2.2.1'],
  applicability: 'The first `<meta http-equiv="refresh">` with a valid content value.',
  expectation: 'Its time is 0 or more than 72000 seconds (20 hours).',
  *evaluate(ctx) {
    for (const meta of ctx.tagged('meta')) {
      if ((meta.attribs['http-equiv'] ?? '').trim().toLowerCase() !== 'refresh') continue;
      const time = refreshTime(meta.attribs.content ?? '');
      if (time === undefined) continue;
      if (time === 0 || time > 72000) yield passed(meta);
      else yield failed(meta, `the page refreshes or redirects after ${time} s`);
      return;
    }
  },
};
