// The registry: exactly the spec's eight controls, in spec order, with the spec's framework
// function and requirement text, and the severities documented in the branch README.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { AI_GOVERNANCE_CONTROL_IDS, aiGovernanceControl, aiGovernanceControls } from '../../../src/audit/ai-governance/index.ts';

// Service interface, section 1, "AI-governance branch".
const SPEC: ReadonlyArray<[id: string, framework: string, requirement: string]> = [
  ['ai-governance.ai-disclosure-notice', 'Govern', 'Page discloses AI use, AI-generated content, or automated decisions.'],
  ['ai-governance.model-card-or-system-description', 'Measure', 'Page links to a model card, system card, system description, or technical documentation.'],
  ['ai-governance.training-data-provenance', 'Map', 'Page discloses training-data, dataset-source, data-origin, or dataset-provenance information.'],
  ['ai-governance.human-oversight-contact', 'Manage', 'An oversight, review, appeal or escalation statement is paired with a contact mechanism.'],
  ['ai-governance.model-provider-and-version', 'Govern', 'Visible text or a named documentation link identifies both the model provider and a concrete model/version.'],
  ['ai-governance.system-purpose-and-role', 'Map', 'Visible text or a named documentation link states the system purpose, intended use, or model/system role.'],
  ['ai-governance.training-data-categories-and-sources', 'Map / Measure', 'Page discloses both training-data categories and a data-source or provenance statement.'],
  ['ai-governance.model-governance-artifacts', 'Measure', 'Page exposes a governance artifact such as a risk assessment, evaluation, monitoring record, or governance policy.'],
];

test('the registry holds the spec controls in spec order, with their function and requirement', () => {
  assert.deepEqual(
    aiGovernanceControls.map((c) => [c.id, c.framework, c.requirement]),
    SPEC.map((row) => [...row]),
  );
  assert.deepEqual([...AI_GOVERNANCE_CONTROL_IDS], SPEC.map(([id]) => id));
  for (const control of aiGovernanceControls) {
    assert.equal(control.branch, 'ai-governance');
    assert.ok(control.severity === 'error' || control.severity === 'warning');
    assert.equal(aiGovernanceControl(control.id), control);
  }
});

test('the branch README documents each control with its severity', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../../src/audit/ai-governance/README.md'), 'utf8');
  for (const control of aiGovernanceControls) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${control.id}\``));
    assert.ok(row !== undefined, `README has no row for ${control.id}`);
    const cells = row.split('|').map((cell) => cell.trim());
    assert.equal(cells[2], control.framework, `${control.id} function`);
    assert.equal(cells[3], control.severity, `${control.id} severity`);
  }
});
