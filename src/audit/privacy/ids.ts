// The privacy controls' ids are a public contract (issue 3): closed here so a typo cannot compile.
export const PRIVACY_CONTROL_IDS = [
  'privacy.consent-before-nonessential-cookies',
  'privacy.nonessential-cookies',
  'privacy.consent-banner-structure',
  'privacy.do-not-sell-opt-out',
  'privacy.privacy-policy-link',
  'privacy.privacy-policy-reachable',
] as const;

export type PrivacyControlId = (typeof PRIVACY_CONTROL_IDS)[number];
