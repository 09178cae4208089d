// The WCAG branch: the static rule engine over the page, aggregated per criterion of the
// requested standard. With an AI step configured (ai-step/), the judgement questions of the
// requested standard that apply to the page go to the model after the rules, with the page
// summary (summary.ts) and the rules' verdicts, and its answers merge into the findings
// (findings.ts, AiMerge). An AI step that fails throws AnalysisFailedError: nothing is returned,
// so nothing is persisted, and the route answers 502.
import type { AuditResult, AiUse } from '../findings.ts';
import type { Page } from '../page.ts';
import { AnalysisCancelledError, judgeDetailed, type AiJudgementResult, type AiLog, type ChatClient } from './ai-step/index.ts';
import type { SummaryInput } from './ai-step/summary.ts';
import { STANDARD_CRITERIA, type WcagStandard } from './criteria.ts';
import type { Element } from 'domhandler';
import { runEngine } from './engine.ts';
import { aggregate, aiTargetKey, NO_AI_NOTE, type AiMerge } from './findings.ts';
import { WCAG_RULES } from './rules/index.ts';
import { summarisePage } from './summary.ts';

export { WCAG_RULES } from './rules/index.ts';
export { CRITERIA, REPORTED_CRITERIA, STANDARD_CRITERIA, WCAG_STANDARDS, type WcagCriterion, type WcagStandard } from './criteria.ts';
export { AnalysisCancelledError, AnalysisFailedError } from './ai-step/index.ts';

export { summarisePage, type PageSummary } from './summary.ts';

/** The deterministic rules only (no AI step configured): judgement criteria stay inconclusive. */
export function analyseWcag(page: Page, standard: WcagStandard, includeWarnings: boolean): AuditResult {
  const { runs } = runEngine(page);
  return aggregate(runs, standard, includeWarnings, { used: false, note: NO_AI_NOTE });
}

/** The AI step as the branch calls it: a chat client built once from `config.ai`, and its model's name. */
export interface WcagAi {
  client: ChatClient;
  model: string;
}

export interface WcagAiCall {
  ai: WcagAi;
  /** The request's logger: each failed attempt and the reason of a failure go here (never the key). */
  log: AiLog;
  /** The request's cancellation (its client closed the connection): the call in flight is aborted. */
  signal?: AbortSignal | undefined;
}

/**
 * The rules, then the AI step on the judgement criteria of `standard` that apply to the page.
 * Throws AnalysisFailedError when the step gets no conformant answer after its one retry, and
 * AnalysisCancelledError when `call.signal` aborts (also when it does just after the answer came):
 * either way there is no result to persist.
 *
 * The audit flow runs the three parts below apart (src/audit/analysis/): the two CPU-bound halves in
 * an analysis thread, the model call between them on the main thread, so only plain data crosses.
 */
export async function analyseWcagWithAi(page: Page, standard: WcagStandard, includeWarnings: boolean, call: WcagAiCall): Promise<AuditResult> {
  const result = await judgeWcag(prepareWcagJudgement(page, standard), standard, call);
  return finishWcagWithAi(page, standard, includeWarnings, result, call.ai.model);
}

/** What the AI step needs of the page, as plain data (structured-cloneable: it leaves the analysis thread). */
export interface WcagJudgementRequest {
  /** The summary's records and the rules' verdict per criterion. */
  input: SummaryInput;
  /** Every element the summary names, by its selector, with its snippet: what an answer may judge. */
  located: Map<string, string>;
}

/** The rules' half before the AI step: the page's records, the deterministic verdicts, the named elements. */
export function prepareWcagJudgement(page: Page, standard: WcagStandard): WcagJudgementRequest {
  const { context, runs } = runEngine(page);
  const elements = new Map<string, Element>();
  const records = summarisePage(context, elements);
  // The rules' verdict per criterion, for the model's context: the same aggregation, without AI.
  const deterministic = aggregate(runs, standard, true, { used: false, note: 'rules only, for the AI step' });
  const located = new Map<string, string>();
  for (const [selector, el] of elements) located.set(selector, context.locate(el).snippet);
  return {
    input: { ...records, results: deterministic.controls.map((c) => ({ criterion: c.control, outcome: c.outcome, evidence: c.evidence })) },
    located,
  };
}

/** The AI step over a prepared request (network: the main thread's chat client). */
export async function judgeWcag(request: WcagJudgementRequest, standard: WcagStandard, call: WcagAiCall): Promise<AiJudgementResult> {
  const result = await judgeDetailed(
    {
      page: request.input,
      standard,
      standardCriteria: STANDARD_CRITERIA[standard],
      selectorExists: (selector) => request.located.has(selector),
      snippetOf: (selector) => request.located.get(selector) ?? '',
      ...(call.signal ? { signal: call.signal } : {}),
    },
    { client: call.ai.client, log: call.log },
  );
  if (call.signal?.aborted) throw new AnalysisCancelledError(result.calls);
  return result;
}

/** The rules again with the step's answers merged: the audit's result. */
export function finishWcagWithAi(page: Page, standard: WcagStandard, includeWarnings: boolean, result: AiJudgementResult, model: string): AuditResult {
  const { runs } = runEngine(page);
  return aggregate(runs, standard, includeWarnings, aiUse(result, model), toMerge(result));
}

/** The step's answers keyed by judgement target, and its findings traced to the ACT rules too. */
function toMerge(result: AiJudgementResult): AiMerge {
  const verdicts = new Map<string, 'pass' | 'fail' | 'cantTell' | 'unjudged'>();
  for (const question of result.asked) for (const target of question.targets) verdicts.set(aiTargetKey(question.id, target), 'unjudged');
  for (const j of result.judgements) verdicts.set(aiTargetKey(j.question, j.selector), j.outcome);
  const findings = result.findings.map((f) => ({
    ...f,
    actRules: [...new Set(f.rules.flatMap((id) => ACT_RULES_OF.get(id) ?? []))],
  }));
  return { verdicts, findings };
}

/** The ACT rules of each judgement rule (the AI's question ids are those rules' ids). */
const ACT_RULES_OF = new Map(WCAG_RULES.filter((r) => r.judgement === true).map((r) => [r.id, r.actRules]));

function aiUse(result: AiJudgementResult, model: string): AiUse {
  if (result.calls === 0) return { used: false, note: 'AI step configured, but no judgement question applies to this page' };
  const criteria = [...new Set(result.asked.map((q) => q.criterion))].join(', ');
  const elements = result.asked.reduce((n, q) => n + q.targets.length, 0);
  return {
    used: true,
    model,
    note: `AI judgement of ${criteria} (${elements} element${elements === 1 ? '' : 's'} asked); its findings carry source "ai" and are warnings`,
  };
}
