// The AI step's public interface, what the WCAG branch calls (see README.md in this folder).
export { AnalysisCancelledError, AnalysisFailedError, createAiStep, judge, judgeDetailed } from './judge.ts';
export type { AiCriterionVerdict, AiFinding, AiJudgementResult, AiLog, AiOccurrence, AiStep, AttemptFailure, AttemptRecord, JudgeDeps, JudgeInput } from './judge.ts';
export { buildSummary, SUMMARY_LIMITS, SUMMARY_MAX_CHARS } from './summary.ts';
export type { PageSummary, SummaryInput } from './summary.ts';
export { JUDGEMENT_CRITERIA, QUESTION_IDS, QUESTIONS, questionsFor } from './questions.ts';
export type { AskedQuestion, JudgementCriterion, QuestionId } from './questions.ts';
export { createChatClient, ProviderError } from './client.ts';
export type { ChatClient, ChatMessage, ChatReply, ChatRequest } from './client.ts';
