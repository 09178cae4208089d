// Shared helpers for the link-control tests: loading fixture pages, building the PrivacyPage
// context, and the evidence shape every outcome must have.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Outcome } from '../../../../src/audit/control.ts';
import { buildPage, type Page } from '../../../../src/audit/page.ts';
import type { PolicyFollow, PrivacyPage } from '../../../../src/audit/privacy/context.ts';
import { selectPolicyLink } from '../../../../src/audit/privacy/links/index.ts';

export const FIXTURE_ROOT = path.resolve(import.meta.dirname, '../../../fixtures/privacy/links');

export function loadFixture(file: string): Page {
  return buildPage(readFileSync(path.join(FIXTURE_ROOT, file), 'utf8'), `https://fixtures.example/${file}`);
}

/** The context the branch would build: the selected link with `follow`, or no policy (none selected, or not followed). */
export function contextFor(page: Page, follow?: PolicyFollow): PrivacyPage {
  const link = selectPolicyLink(page);
  return { page, responseCookies: [], policy: link !== undefined && follow !== undefined ? { link, follow } : undefined };
}

/** What every outcome's evidence must satisfy, whatever the control and page. */
export function assertEvidenceShape(outcome: Outcome, label: string): void {
  assert.ok(['pass', 'fail', 'inconclusive'].includes(outcome.status), `${label}: status ${outcome.status}`);
  assert.ok(outcome.evidence.trim().length > 0, `${label}: empty evidence`);
  assert.ok(outcome.evidence.length <= 200, `${label}: evidence is ${outcome.evidence.length} characters`);
  assert.ok(!/\s{2,}/.test(outcome.evidence), `${label}: evidence whitespace is not collapsed: ${outcome.evidence}`);
  if (outcome.location !== undefined) {
    assert.ok(outcome.location.selector.length > 0, `${label}: empty selector`);
    assert.ok(outcome.location.snippet.length > 0 && outcome.location.snippet.length <= 200, `${label}: snippet length ${outcome.location.snippet.length}`);
  }
}
