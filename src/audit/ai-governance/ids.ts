// The AI-governance control ids, exactly as in the service interface (section 1), in spec
// order. An id is a public contract: it never changes meaning and is never reused.

export const AI_GOVERNANCE_CONTROL_IDS = [
  'ai-governance.ai-disclosure-notice',
  'ai-governance.model-card-or-system-description',
  'ai-governance.training-data-provenance',
  'ai-governance.human-oversight-contact',
  'ai-governance.model-provider-and-version',
  'ai-governance.system-purpose-and-role',
  'ai-governance.training-data-categories-and-sources',
  'ai-governance.model-governance-artifacts',
] as const;

export type AiGovernanceControlId = (typeof AI_GOVERNANCE_CONTROL_IDS)[number];

/** The id without its branch prefix, e.g. `ai-disclosure-notice` (also the fixture folder name). */
export type AiGovernanceShortName = ShortName<AiGovernanceControlId>;
type ShortName<Id> = Id extends `ai-governance.${infer Short}` ? Short : never;
