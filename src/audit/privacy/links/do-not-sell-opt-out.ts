// privacy.do-not-sell-opt-out: the page carries a linked "Do Not Sell or Share" / "Your Privacy
// Choices" opt-out control (Cal. Civ. Code §1798.135; 11 CCR §§7013–7015).
//
// Passes on a visible link, button or role=link/button element whose name carries an opt-out
// wording (opt-out.ts, vocabulary.ts), the CPPA icon's alt text included. The wording as plain
// text, or only in a hidden control, fails and says so. The wording in a visible element that only
// script makes clickable (`<a onclick>` without href, OneTrust's `ot-sdk-show-settings`) is
// inconclusive. On a script-rendered shell with nothing
// found the outcome is inconclusive: the footer that would carry the link is rendered by script.
import type { Control, Outcome } from '../../control.ts';
import { locate, type Page, type TextBlock } from '../../page.ts';
import type { PrivacyPage } from '../context.ts';
import type { PrivacyControlId } from '../ids.ts';
import { lookedFor, outcome, quoteName, shortUrl } from './evidence.ts';
import { scanOptOut, type OptOutControl } from './opt-out.ts';
import { OPT_OUT_EXAMPLES } from './vocabulary.ts';

/** Words that start an opt-out wording in plain text, to quote the right part of a long block. */
const ANCHORS = ['do not sell', 'don’t sell', "don't sell", 'privacy choices', 'limit the use', 'opt-out of', 'opt out of', 'no vend', 'opciones de privacidad'];

function describe(control: OptOutControl): string {
  return `${control.kind} ${quoteName(control.name, 80)}${control.href === null ? '' : ` → ${shortUrl(control.href, 80)}`}`;
}

/** The words around the opt-out wording in a text block, at most `max` characters. */
function around(block: TextBlock, max: number): string {
  const lower = block.text.toLowerCase();
  const at = Math.min(...ANCHORS.map((anchor) => lower.indexOf(anchor)).filter((i) => i >= 0), block.text.length);
  const start = at === block.text.length || at < 20 ? 0 : at - 20;
  return quoteName(`${start > 0 ? '…' : ''}${block.text.slice(start)}`, max);
}

/** The outcomes of this control. */
export const outcomes = {
  /** A visible control carries the wording. */
  found: (page: Page, control: OptOutControl): Outcome => outcome('pass', `Opt-out control: ${describe(control)}`, locate(page, control.element)),
  /** A visible element that only script makes clickable carries it: static HTML cannot show that it works. */
  scriptBound: (page: Page, control: OptOutControl): Outcome =>
    outcome(
      'inconclusive',
      `Opt-out wording in an element that only script makes clickable (no href, not a button): ${quoteName(control.name, 70)}; whether it works cannot be seen without running script`,
      locate(page, control.element),
    ),
  /** Only a hidden control carries it (template, hidden, aria-hidden, display:none): visitors do not see it. */
  hiddenOnly: (page: Page, control: OptOutControl): Outcome =>
    outcome('fail', `Opt-out wording only in a hidden control, not shown to visitors: ${describe(control)}`, locate(page, control.element)),
  /** The wording is on the page, but not as a link or control. */
  plainTextOnly: (page: Page, block: TextBlock): Outcome =>
    outcome('fail', `Opt-out wording only as plain text, not a link or control: ${around(block, 110)}`, block.element === null ? undefined : locate(page, block.element)),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome =>
    outcome(
      'inconclusive',
      `No opt-out control found, but the page is a script-rendered shell (${page.text.length} characters of visible text): its links are rendered by script, which static analysis does not run`,
    ),
  /** Nothing found. */
  notFound: (): Outcome => lookedFor('No linked opt-out or privacy-choices control found', OPT_OUT_EXAMPLES),
};

export const control: Control<PrivacyControlId, PrivacyPage> = {
  id: 'privacy.do-not-sell-opt-out',
  branch: 'privacy',
  framework: 'CCPA/CPRA',
  requirement: 'The scanned page must contain a linked opt-out or privacy-choices control.',
  // Warning: the duty binds only businesses that sell or share personal information and meet the
  // CCPA thresholds; static HTML cannot tell whether the site is one, so absence is a gap to review.
  severity: 'warning',
  evaluate({ page }) {
    const scan = scanOptOut(page);
    if (scan.control !== undefined) return outcomes.found(page, scan.control);
    if (scan.scriptBound !== undefined) return outcomes.scriptBound(page, scan.scriptBound);
    if (scan.hidden !== undefined) return outcomes.hiddenOnly(page, scan.hidden);
    if (scan.plainText !== undefined) return outcomes.plainTextOnly(page, scan.plainText);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notFound();
  },
};
