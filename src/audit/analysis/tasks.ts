// The CPU-bound part of an audit, as tasks an analysis thread runs (worker.ts) or, for benches, the
// caller's own thread. A task and its result are plain data: they cross the thread boundary by
// structured clone, which keeps neither class instances nor functions. So each task carries the
// page's HTML and parses it afresh (a few milliseconds) rather than share a parsed tree, and a
// branch whose analysis waits for the network in its middle (the privacy policy follow, the WCAG
// AI step) is two tasks around that wait, which stays on the main thread with its safe fetcher and
// chat client.
//
// An error does not survive the crossing either (structured clone keeps an Error's message, not its
// class, name or fields), so the one expected failure, PageTooComplexError, comes back as a marked
// value (TaskOutcome) and the main thread throws it again (pool.ts).
import { aiGovernanceControls } from '../ai-governance/index.ts';
import type { WcagStandard } from '../control.ts';
import { evaluateControls, type AuditResult } from '../findings.ts';
import { buildPage, PageTooComplexError, type Page } from '../page.ts';
import type { PolicyFollow, ResponseCookie } from '../privacy/context.ts';
import { privacyControls } from '../privacy/index.ts';
import { selectPolicyLink } from '../privacy/links/index.ts';
import type { AiJudgementResult } from '../wcag/ai-step/index.ts';
import { analyseWcag, finishWcagWithAi, prepareWcagJudgement, type WcagJudgementRequest } from '../wcag/index.ts';

/** The crawled page as a task carries it: a URL as text (a URL object does not clone). */
interface PageSource {
  html: string;
  url: string;
}

export type AnalysisTask =
  | (PageSource & { kind: 'ai-governance'; includeWarnings: boolean })
  | (PageSource & { kind: 'wcag'; standard: WcagStandard; includeWarnings: boolean })
  /** WCAG with the AI step, before the model call: what the call needs. */
  | (PageSource & { kind: 'wcag-ai-prepare'; standard: WcagStandard })
  /** WCAG with the AI step, after the model call: the rules with its answers merged. */
  | (PageSource & { kind: 'wcag-ai-finish'; standard: WcagStandard; includeWarnings: boolean; judgement: AiJudgementResult; model: string })
  /** Privacy, before the policy follow: the link to follow, or the result when the page links no policy. */
  | (PageSource & { kind: 'privacy-select'; includeWarnings: boolean; responseCookies: ResponseCookie[] })
  /** Privacy, after the policy follow: the six controls. */
  | (PageSource & { kind: 'privacy-finish'; includeWarnings: boolean; responseCookies: ResponseCookie[]; follow: PolicyFollow });

export type TaskKind = AnalysisTask['kind'];
export type TaskOf<K extends TaskKind> = Extract<AnalysisTask, { kind: K }>;

/** What the privacy branch's first task gives the main thread. */
export type PolicyLinkStep =
  | { done: AuditResult }
  /** `pageUrl`: the page's own URL as the parse saw it, so a link back to the page is not fetched. */
  | { follow: { href: string; pageUrl: string } };

export interface TaskResults {
  'ai-governance': AuditResult;
  wcag: AuditResult;
  'wcag-ai-prepare': WcagJudgementRequest;
  'wcag-ai-finish': AuditResult;
  'privacy-select': PolicyLinkStep;
  'privacy-finish': AuditResult;
}

/** A task's answer as it crosses back: its value, or the marker of a page over the parse bound. */
export type TaskOutcome<K extends TaskKind = TaskKind> = { ok: true; value: TaskResults[K] } | { ok: false; error: 'page-too-complex' };

/** Runs one task in the calling thread. Throws PageTooComplexError for a page nested too deep. */
export function runTask<K extends TaskKind>(task: TaskOf<K>): TaskResults[K] {
  return run(task) as TaskResults[K];
}

function run(task: AnalysisTask): TaskResults[TaskKind] {
  const page = buildPage(task.html, task.url);
  switch (task.kind) {
    case 'ai-governance':
      return evaluateControls(aiGovernanceControls, page, task.includeWarnings);
    case 'wcag':
      return analyseWcag(page, task.standard, task.includeWarnings);
    case 'wcag-ai-prepare':
      return prepareWcagJudgement(page, task.standard);
    case 'wcag-ai-finish':
      return finishWcagWithAi(page, task.standard, task.includeWarnings, task.judgement, task.model);
    case 'privacy-select': {
      const link = selectPolicyLink(page);
      return link === undefined
        ? { done: privacyResult(page, task, undefined) }
        : { follow: { href: link.href, pageUrl: page.url.href } };
    }
    case 'privacy-finish':
      return privacyResult(page, task, task.follow);
  }
}

/**
 * The privacy controls over the page and the follow's outcome. The link is selected again from the
 * fresh parse: selection is a pure function of the page, so it is the link the first task chose.
 */
function privacyResult(page: Page, task: { includeWarnings: boolean; responseCookies: ResponseCookie[] }, follow: PolicyFollow | undefined): AuditResult {
  const link = follow === undefined ? undefined : selectPolicyLink(page);
  if (follow !== undefined && link === undefined) throw new Error('the policy link selected before the follow is gone after it');
  const policy = link === undefined || follow === undefined ? undefined : { link, follow };
  return evaluateControls(privacyControls, { page, responseCookies: task.responseCookies, policy }, task.includeWarnings);
}

/** Runs one task and marks the expected failure as a value, for the crossing back (worker.ts). */
export function runTaskOutcome(task: AnalysisTask): TaskOutcome {
  try {
    return { ok: true, value: run(task) };
  } catch (error) {
    if (error instanceof PageTooComplexError) return { ok: false, error: 'page-too-complex' };
    throw error;
  }
}
