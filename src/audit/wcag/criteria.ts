// The WCAG 2.1 and 2.2 success criteria of levels A and AA: the one table from which the
// criterion type, the three standards and every criterion a rule may name are derived. A rule
// naming a criterion outside this table does not compile.

export interface CriterionRow {
  readonly num: string;
  readonly title: string;
  readonly level: 'A' | 'AA';
  /** The WCAG version that added the criterion. */
  readonly since: '2.0' | '2.1' | '2.2';
  /** Obsolete and removed in WCAG 2.2 (4.1.1 Parsing). */
  readonly removedIn?: '2.2';
  /**
   * Always satisfied for content using HTML or XML, by W3C's 2023 erratum to WCAG 2.0 and 2.1
   * (4.1.1 Parsing): part of its standards, but never reported (no control, no finding).
   */
  readonly alwaysSatisfied?: true;
}

export const CRITERIA = [
  { num: '1.1.1', title: 'Non-text Content', level: 'A', since: '2.0' },
  { num: '1.2.1', title: 'Audio-only and Video-only (Prerecorded)', level: 'A', since: '2.0' },
  { num: '1.2.2', title: 'Captions (Prerecorded)', level: 'A', since: '2.0' },
  { num: '1.2.3', title: 'Audio Description or Media Alternative (Prerecorded)', level: 'A', since: '2.0' },
  { num: '1.2.4', title: 'Captions (Live)', level: 'AA', since: '2.0' },
  { num: '1.2.5', title: 'Audio Description (Prerecorded)', level: 'AA', since: '2.0' },
  { num: '1.3.1', title: 'Info and Relationships', level: 'A', since: '2.0' },
  { num: '1.3.2', title: 'Meaningful Sequence', level: 'A', since: '2.0' },
  { num: '1.3.3', title: 'Sensory Characteristics', level: 'A', since: '2.0' },
  { num: '1.3.4', title: 'Orientation', level: 'AA', since: '2.1' },
  { num: '1.3.5', title: 'Identify Input Purpose', level: 'AA', since: '2.1' },
  { num: '1.4.1', title: 'Use of Color', level: 'A', since: '2.0' },
  { num: '1.4.2', title: 'Audio Control', level: 'A', since: '2.0' },
  { num: '1.4.3', title: 'Contrast (Minimum)', level: 'AA', since: '2.0' },
  { num: '1.4.4', title: 'Resize Text', level: 'AA', since: '2.0' },
  { num: '1.4.5', title: 'Images of Text', level: 'AA', since: '2.0' },
  { num: '1.4.10', title: 'Reflow', level: 'AA', since: '2.1' },
  { num: '1.4.11', title: 'Non-text Contrast', level: 'AA', since: '2.1' },
  { num: '1.4.12', title: 'Text Spacing', level: 'AA', since: '2.1' },
  { num: '1.4.13', title: 'Content on Hover or Focus', level: 'AA', since: '2.1' },
  { num: '2.1.1', title: 'Keyboard', level: 'A', since: '2.0' },
  { num: '2.1.2', title: 'No Keyboard Trap', level: 'A', since: '2.0' },
  { num: '2.1.4', title: 'Character Key Shortcuts', level: 'A', since: '2.1' },
  { num: '2.2.1', title: 'Timing Adjustable', level: 'A', since: '2.0' },
  { num: '2.2.2', title: 'Pause, Stop, Hide', level: 'A', since: '2.0' },
  { num: '2.3.1', title: 'Three Flashes or Below Threshold', level: 'A', since: '2.0' },
  { num: '2.4.1', title: 'Bypass Blocks', level: 'A', since: '2.0' },
  { num: '2.4.2', title: 'Page Titled', level: 'A', since: '2.0' },
  { num: '2.4.3', title: 'Focus Order', level: 'A', since: '2.0' },
  { num: '2.4.4', title: 'Link Purpose (In Context)', level: 'A', since: '2.0' },
  { num: '2.4.5', title: 'Multiple Ways', level: 'AA', since: '2.0' },
  { num: '2.4.6', title: 'Headings and Labels', level: 'AA', since: '2.0' },
  { num: '2.4.7', title: 'Focus Visible', level: 'AA', since: '2.0' },
  { num: '2.4.11', title: 'Focus Not Obscured (Minimum)', level: 'AA', since: '2.2' },
  { num: '2.5.1', title: 'Pointer Gestures', level: 'A', since: '2.1' },
  { num: '2.5.2', title: 'Pointer Cancellation', level: 'A', since: '2.1' },
  { num: '2.5.3', title: 'Label in Name', level: 'A', since: '2.1' },
  { num: '2.5.4', title: 'Motion Actuation', level: 'A', since: '2.1' },
  { num: '2.5.7', title: 'Dragging Movements', level: 'AA', since: '2.2' },
  { num: '2.5.8', title: 'Target Size (Minimum)', level: 'AA', since: '2.2' },
  { num: '3.1.1', title: 'Language of Page', level: 'A', since: '2.0' },
  { num: '3.1.2', title: 'Language of Parts', level: 'AA', since: '2.0' },
  { num: '3.2.1', title: 'On Focus', level: 'A', since: '2.0' },
  { num: '3.2.2', title: 'On Input', level: 'A', since: '2.0' },
  { num: '3.2.3', title: 'Consistent Navigation', level: 'AA', since: '2.0' },
  { num: '3.2.4', title: 'Consistent Identification', level: 'AA', since: '2.0' },
  { num: '3.2.6', title: 'Consistent Help', level: 'A', since: '2.2' },
  { num: '3.3.1', title: 'Error Identification', level: 'A', since: '2.0' },
  { num: '3.3.2', title: 'Labels or Instructions', level: 'A', since: '2.0' },
  { num: '3.3.3', title: 'Error Suggestion', level: 'AA', since: '2.0' },
  { num: '3.3.4', title: 'Error Prevention (Legal, Financial, Data)', level: 'AA', since: '2.0' },
  { num: '3.3.7', title: 'Redundant Entry', level: 'A', since: '2.2' },
  { num: '3.3.8', title: 'Accessible Authentication (Minimum)', level: 'AA', since: '2.2' },
  { num: '4.1.1', title: 'Parsing', level: 'A', since: '2.0', removedIn: '2.2', alwaysSatisfied: true },
  { num: '4.1.2', title: 'Name, Role, Value', level: 'A', since: '2.0' },
  { num: '4.1.3', title: 'Status Messages', level: 'AA', since: '2.1' },
] as const satisfies readonly CriterionRow[];

export type WcagCriterion = (typeof CRITERIA)[number]['num'];

/** The conformance targets an audit can be asked for (spec section 4). */
export const WCAG_STANDARDS = ['WCAG21A', 'WCAG21AA', 'WCAG22AA'] as const;
export type WcagStandard = (typeof WCAG_STANDARDS)[number];

const STANDARD_DEFINITION: Record<WcagStandard, { version: '2.1' | '2.2'; levels: readonly CriterionRow['level'][] }> = {
  WCAG21A: { version: '2.1', levels: ['A'] },
  WCAG21AA: { version: '2.1', levels: ['A', 'AA'] },
  WCAG22AA: { version: '2.2', levels: ['A', 'AA'] },
};

const VERSION_ORDER = { '2.0': 0, '2.1': 1, '2.2': 2 } as const;

function inStandard(row: CriterionRow, standard: WcagStandard): boolean {
  const { version, levels } = STANDARD_DEFINITION[standard];
  if (!levels.includes(row.level)) return false;
  if (VERSION_ORDER[row.since] > VERSION_ORDER[version]) return false;
  return row.removedIn === undefined || VERSION_ORDER[row.removedIn] > VERSION_ORDER[version];
}

/** The criteria each standard is made of, in table order. */
export const STANDARD_CRITERIA: Readonly<Record<WcagStandard, ReadonlySet<WcagCriterion>>> = Object.fromEntries(
  WCAG_STANDARDS.map((standard) => [standard, new Set(CRITERIA.filter((row) => inStandard(row, standard)).map((row) => row.num))]),
) as unknown as Record<WcagStandard, ReadonlySet<WcagCriterion>>;

/**
 * The criteria an audit against each standard may report: the standard's, less those always
 * satisfied (4.1.1: a rule mapped to it, duplicate-id, still runs for its ACT rule, and is
 * reported under no criterion).
 */
export const REPORTED_CRITERIA: Readonly<Record<WcagStandard, ReadonlySet<WcagCriterion>>> = Object.fromEntries(
  WCAG_STANDARDS.map((standard) => [
    standard,
    new Set(CRITERIA.filter((row) => inStandard(row, standard) && !('alwaysSatisfied' in row)).map((row) => row.num)),
  ]),
) as unknown as Record<WcagStandard, ReadonlySet<WcagCriterion>>;

const BY_NUM = new Map<string, CriterionRow>(CRITERIA.map((row) => [row.num, row]));

export function isCriterion(value: string): value is WcagCriterion {
  return BY_NUM.has(value);
}
