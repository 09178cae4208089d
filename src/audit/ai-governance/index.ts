// The AI-governance branch: its eight controls, registered in spec order (service interface,
// section 1). Each control is one module: data (id, framework, requirement, severity) plus one
// evaluate function over the shared page model, with its outcomes named beside it.
import type { Control } from '../control.ts';
import type { Page } from '../page.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { control as aiDisclosureNotice } from './ai-disclosure-notice.ts';
import { control as modelCardOrSystemDescription } from './model-card-or-system-description.ts';
import { control as trainingDataProvenance } from './training-data-provenance.ts';
import { control as humanOversightContact } from './human-oversight-contact.ts';
import { control as modelProviderAndVersion } from './model-provider-and-version.ts';
import { control as systemPurposeAndRole } from './system-purpose-and-role.ts';
import { control as trainingDataCategoriesAndSources } from './training-data-categories-and-sources.ts';
import { control as modelGovernanceArtifacts } from './model-governance-artifacts.ts';

export { AI_GOVERNANCE_CONTROL_IDS, type AiGovernanceControlId, type AiGovernanceShortName } from './ids.ts';

export type AiGovernanceControl = Control<AiGovernanceControlId, Page>;

/** All eight controls, in the order of the spec's table (and of AI_GOVERNANCE_CONTROL_IDS). */
export const aiGovernanceControls: readonly AiGovernanceControl[] = [
  aiDisclosureNotice,
  modelCardOrSystemDescription,
  trainingDataProvenance,
  humanOversightContact,
  modelProviderAndVersion,
  systemPurposeAndRole,
  trainingDataCategoriesAndSources,
  modelGovernanceArtifacts,
];

/** A control by id; the id type is closed, so a mistyped id does not compile. */
export function aiGovernanceControl(id: AiGovernanceControlId): AiGovernanceControl {
  const control = aiGovernanceControls.find((c) => c.id === id);
  if (control === undefined) throw new Error(`unregistered AI-governance control ${id}`);
  return control;
}
