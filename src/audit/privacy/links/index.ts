// The privacy branch's link controls: the CPRA opt-out link, the privacy-policy link, and the
// reachability of the one policy link the branch follows. Selection and following are exported
// for the branch wiring, which follows the selected link before the (synchronous) controls run.
import type { Control } from '../../control.ts';
import type { PrivacyPage } from '../context.ts';
import type { PrivacyControlId } from '../ids.ts';
import { control as doNotSellOptOut } from './do-not-sell-opt-out.ts';
import { control as privacyPolicyLink } from './privacy-policy-link.ts';
import { control as privacyPolicyReachable } from './privacy-policy-reachable.ts';

export { selectPolicyLink, scanPolicyLinks, comparePolicyCandidates, POLICY_PREFERENCE, type PolicyCandidate } from './policy-link.ts';
export { followPolicyLink, MIN_TEXT_LENGTH, type OperatorLog, type PolicyFollowLimits } from './policy-follow.ts';

export type LinkControl = Control<PrivacyControlId, PrivacyPage>;

/** The three link controls, in the order of the spec's privacy table. */
export const linkControls: readonly LinkControl[] = [doNotSellOptOut, privacyPolicyLink, privacyPolicyReachable];
