// The privacy branch's three consent controls, in the order of the spec's table (and of
// PRIVACY_CONTROL_IDS). They share one evidence pass per page (evidence.ts).
import type { Control } from '../../control.ts';
import type { PrivacyPage } from '../context.ts';
import type { PrivacyControlId } from '../ids.ts';
import { control as consentBeforeNonessentialCookies } from './consent-before-nonessential-cookies.ts';
import { control as nonessentialCookies } from './nonessential-cookies.ts';
import { control as consentBannerStructure } from './consent-banner-structure.ts';

export { analyseConsentEvidence, type ConsentEvidence, type TrackingItem } from './evidence.ts';

export type ConsentControl = Control<PrivacyControlId, PrivacyPage>;

/** The three consent controls: consent ordering, non-essential cookies, banner structure. */
export const consentControls: readonly ConsentControl[] = [consentBeforeNonessentialCookies, nonessentialCookies, consentBannerStructure];

/** The ids of the consent controls, in registry order. */
export const CONSENT_CONTROL_IDS = [
  'privacy.consent-before-nonessential-cookies',
  'privacy.nonessential-cookies',
  'privacy.consent-banner-structure',
] as const satisfies readonly PrivacyControlId[];

export type ConsentControlId = (typeof CONSENT_CONTROL_IDS)[number];
