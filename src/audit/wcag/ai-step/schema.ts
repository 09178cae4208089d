// The one schema of the AI step's answer. The same TypeBox schema is sent as the request's
// `response_format` (json_schema, strict) and compiled to validate what comes back; the type of a
// valid answer is inferred from it. Semantic checks that a schema cannot express follow.
//
// The schema keeps to the subset every strict structured-output implementation accepts (OpenAI
// strict mode, Ollama and llama.cpp grammars, vLLM guided decoding): objects with every property
// required and `additionalProperties: false`, string enums, arrays. String length keywords are not
// accepted everywhere in strict mode, so the evidence bound is a semantic check here.
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { JUDGEMENT_CRITERIA, QUESTION_IDS, type AskedQuestion } from './questions.ts';

/** Longest evidence a judgement may carry. */
export const JUDGEMENT_EVIDENCE_MAX = 300;

export const AI_OUTCOMES = ['pass', 'fail', 'cantTell'] as const;
export type AiOutcome = (typeof AI_OUTCOMES)[number];

// `type: 'string'` beside `enum`: OpenAI's strict mode wants every schema typed.
const JudgementSchema = Type.Object(
  {
    question: Type.Enum(QUESTION_IDS, { type: 'string', description: 'The id of the question answered.' }),
    control: Type.Enum(JUDGEMENT_CRITERIA, { type: 'string', description: 'The success criterion of that question, e.g. "2.4.4".' }),
    outcome: Type.Enum(AI_OUTCOMES, { type: 'string', description: 'pass, fail, or cantTell when the summary does not settle it.' }),
    selector: Type.String({ description: 'The selector of the element judged, copied exactly from the page summary.' }),
    evidence: Type.String({ description: `Why, quoting the text judged; at most ${JUDGEMENT_EVIDENCE_MAX} characters.` }),
  },
  { additionalProperties: false },
);

export const AnswerSchema = Type.Object({ judgements: Type.Array(JudgementSchema) }, { additionalProperties: false });

export type Answer = Static<typeof AnswerSchema>;
export type Judgement = Answer['judgements'][number];

/** The name the schema is sent under (`[a-zA-Z0-9_-]{1,64}`). */
export const ANSWER_SCHEMA_NAME = 'wcag_judgements';

/** The schema as plain JSON, for the request body. */
export const ANSWER_JSON_SCHEMA: Record<string, unknown> = JSON.parse(JSON.stringify(AnswerSchema));

const answerValidator = Compile(AnswerSchema);

/** Most validation errors reported (and fed back to the model on the retry). */
export const ERRORS_MAX = 12;

export interface AnswerContext {
  /** The questions asked, with the selectors each asked about. */
  asked: readonly AskedQuestion[];
  /** The requested standard's name, for messages (e.g. `WCAG21AA`). */
  standard: string;
  /** The criterion ids of the requested standard. */
  standardCriteria: ReadonlySet<string>;
  /** Whether a selector names an element of the audited page. */
  selectorExists(selector: string): boolean;
}

export type AnswerCheck = { ok: true; judgements: Judgement[] } | { ok: false; errors: string[] };

/** Quotes a value from the answer without letting a long one flood the error list. */
function quote(value: string): string {
  return JSON.stringify(value.length <= 80 ? value : `${value.slice(0, 79)}…`);
}

/**
 * Validates a parsed answer: the schema first, then what the schema cannot say. The control must
 * be a criterion of the requested standard and the criterion of its question; the question must
 * have been asked; the selector must be one the question asked about and name an element of the
 * page; the evidence must be non-empty and bounded; every question asked must be answered.
 * Duplicate judgements of one element under one question keep the first.
 */
export function checkAnswer(value: unknown, context: AnswerContext): AnswerCheck {
  if (!answerValidator.Check(value)) {
    const errors = [...answerValidator.Errors(value)]
      // anyOf/enum branches repeat one another; one message per place and text is enough.
      .map((e) => `${e.instancePath || '/'}: ${e.message}`)
      .filter((message, index, all) => all.indexOf(message) === index)
      .slice(0, ERRORS_MAX);
    return { ok: false, errors };
  }
  const answer = value as Answer;
  const errors: string[] = [];
  const byId = new Map(context.asked.map((q) => [q.id, { question: q, targets: new Set(q.targets) }]));
  const answered = new Set<string>();
  const seen = new Set<string>();
  const judgements: Judgement[] = [];
  answer.judgements.forEach((j, index) => {
    const at = `/judgements/${index}`;
    const before = errors.length;
    const asked = byId.get(j.question);
    if (!context.standardCriteria.has(j.control)) {
      errors.push(`${at}/control: ${j.control} is not a criterion of ${context.standard}`);
    } else if (asked === undefined) {
      errors.push(`${at}/question: ${j.question} was not asked`);
    } else if (asked.question.criterion !== j.control) {
      errors.push(`${at}/control: question ${j.question} is about ${asked.question.criterion}, not ${j.control}`);
    }
    if (asked !== undefined && !asked.targets.has(j.selector)) {
      errors.push(`${at}/selector: ${quote(j.selector)} is not one of the elements question ${j.question} asks about`);
    } else if (!context.selectorExists(j.selector)) {
      errors.push(`${at}/selector: ${quote(j.selector)} names no element of the page`);
    }
    const evidence = j.evidence.trim();
    if (evidence === '') errors.push(`${at}/evidence: must not be empty`);
    else if (evidence.length > JUDGEMENT_EVIDENCE_MAX) errors.push(`${at}/evidence: must be at most ${JUDGEMENT_EVIDENCE_MAX} characters, got ${evidence.length}`);
    if (errors.length > before) return;
    answered.add(j.question);
    const key = `${j.question}\u0000${j.selector}`;
    if (seen.has(key)) return;
    seen.add(key);
    judgements.push({ ...j, evidence });
  });
  for (const q of context.asked) {
    if (!answered.has(q.id)) errors.push(`question ${q.id} was not answered: give a judgement for each of its elements`);
  }
  return errors.length === 0 ? { ok: true, judgements } : { ok: false, errors: errors.slice(0, ERRORS_MAX) };
}
