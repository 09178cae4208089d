// ai-governance.model-provider-and-version (Govern): visible text or a named documentation link
// identifies both the model provider and a concrete model/version.
//
// Providers and model families are data (providers.ts). Passes when a concrete model is named
// and a provider is named too: in the same text block (any listed provider, e.g. "Azure OpenAI
// … GPT-4o"), or the model's own provider anywhere on the page, or via a visible link to the
// provider's domain. A link's href counts as well ("openai.com/index/gpt-4o-system-card").
// A generic version ("model version 2.1", "v3") counts only with a provider in the same block.
// Provider alone, model alone, or "our latest model" fail, saying which half is missing.
import type { Control, Outcome } from '../control.ts';
import { truncate, type Page } from '../page.ts';
import { EVIDENCE_MAX, corpusOf, findHit, linked, locationAt, lookedFor, outcome, partlyFound, placeOf, quotedText, scriptRendered, terms, type Corpus, type Hit, type Target } from './evidence.ts';
import type { AiGovernanceControlId } from './ids.ts';
import { GENERIC_MODEL_VERSION, MODEL_FAMILIES, PROVIDERS, providerOfHost, type ModelFamily, type Provider } from './providers.ts';

const PROVIDER_NAMES = terms({ exact: PROVIDERS.map((p) => p.pattern), examples: PROVIDERS.map((p) => p.name) });
const MODELS = terms({ lower: MODEL_FAMILIES.map((f) => f.pattern), examples: MODEL_FAMILIES.map((f) => f.example) });
const GENERIC = terms({ lower: [GENERIC_MODEL_VERSION], examples: ['model version 2.1'] });

/** Anchored per-entry regexes, to tell which provider or family a hit is. */
const PROVIDER_RES = PROVIDERS.map((p) => [p, new RegExp(`^(?:${p.pattern})$`, 'u')] as const);
const FAMILY_RES = MODEL_FAMILIES.map((f) => [f, new RegExp(`^(?:${f.pattern})$`, 'u')] as const);
/** Model ids inside link hrefs (lower-case, any separators). */
const MODEL_IN_HREF = new RegExp(`(?<![a-z0-9])(?:${MODEL_FAMILIES.map((f) => f.pattern).join('|')})(?![a-z0-9])`, 'u');

/** Model hits examined per page. */
const MAX_MODELS = 30;

function providerOf(corpus: Corpus, hit: Hit): Provider | undefined {
  const text = corpus.text.slice(hit.start, hit.end);
  return PROVIDER_RES.find(([, re]) => re.test(text))?.[0];
}

function familyOf(corpus: Corpus, hit: Hit): ModelFamily | undefined {
  const text = corpus.lower.slice(hit.start, hit.end);
  return FAMILY_RES.find(([, re]) => re.test(text))?.[0];
}

interface Identified {
  model: Hit;
  provider: Provider;
}

/** The first concrete model with a provider, per the pairing rules above. */
function identify(corpus: Corpus): { identified?: Identified; model?: Hit; provider?: Hit } {
  const firstProvider = findHit(corpus, PROVIDER_NAMES);
  let firstModel: Hit | undefined;
  let from = 0;
  for (let i = 0; i < MAX_MODELS; i++) {
    const named = findHit(corpus, MODELS, undefined, from);
    const generic = findHit(corpus, GENERIC, undefined, from, named?.start);
    const model = generic ?? named;
    if (model === undefined) break;
    from = model.end;
    const family = model === named ? familyOf(corpus, model) : undefined;
    if (model === named) firstModel ??= model;
    // 1. Any provider in the same block (or segment).
    const place = placeOf(corpus, model.start);
    const sameBlock = findHit(corpus, PROVIDER_NAMES, undefined, place.start, place.end);
    if (sameBlock !== undefined) {
      const provider = providerOf(corpus, sameBlock);
      if (provider !== undefined) return { identified: { model, provider } };
    }
    if (family === undefined) continue; // a generic version needs its provider in the same block
    // 2. The family's own provider anywhere on the page.
    const own = PROVIDERS.find((p) => p.name === family.provider);
    if (own === undefined) continue;
    const ownHit = findHit(corpus, PROVIDER_NAMES, (hit) => providerOf(corpus, hit) === own);
    if (ownHit !== undefined) return { identified: { model, provider: own } };
    // 3. A visible link to the family's provider.
    const link = corpus.targets.find((t) => t.url !== null && providerOfHost(t.url.hostname) === own);
    if (link !== undefined) return { identified: { model, provider: own } };
  }
  return { model: firstModel, provider: firstProvider };
}

/** A target on a provider's domain whose path names a concrete model (e.g. a system card URL). */
function documentationLink(corpus: Corpus): { target: Target; provider: Provider; model: string } | undefined {
  for (const target of corpus.targets) {
    if (target.url === null) continue;
    const provider = providerOfHost(target.url.hostname);
    if (provider === undefined) continue;
    const match = MODEL_IN_HREF.exec(`${target.url.pathname}${target.url.search}`.toLowerCase());
    if (match !== null) return { target, provider, model: match[0] };
  }
  return undefined;
}

const MODEL_EXAMPLES = [
  ...MODEL_FAMILIES.filter((f) => ['GPT', 'Claude', 'Gemini', 'Llama', 'Mistral'].includes(f.name)).map((f) => f.example),
  'model version 2.1',
];

/** The outcomes of this control. */
export const outcomes = {
  /** A concrete model and a provider are both named; the evidence quotes the model's context. */
  identified: (corpus: Corpus, { model, provider }: Identified): Outcome => {
    const what = `Provider ${provider.name} and model "${truncate(corpus.text.slice(model.start, model.end), 40)}"`;
    return outcome('pass', quotedText(corpus, what, model, EVIDENCE_MAX), locationAt(corpus, model));
  },
  /** A visible link to the provider's domain whose href names the model (not followed). */
  linked: (corpus: Corpus, link: Target, provider: Provider, model: string): Outcome =>
    linked(corpus, 'pass', `Provider ${provider.name} and model "${model}" in a documentation link`, link),
  /** A provider is named but no concrete model or version. */
  versionMissing: (corpus: Corpus, provider: Hit): Outcome =>
    partlyFound(corpus, 'Provider named but no concrete model or version', MODEL_EXAMPLES, provider),
  /** A model is named but not its provider. */
  providerMissing: (corpus: Corpus, model: Hit): Outcome =>
    partlyFound(corpus, 'Model named but not its provider', PROVIDER_NAMES.examples, model),
  /** Nothing found, and the page is a script-rendered shell: static HTML cannot decide. */
  scriptRendered: (page: Page): Outcome => scriptRendered('model provider or version', page),
  /** Neither. */
  notFound: (): Outcome =>
    lookedFor('No model provider or concrete model/version found', [...PROVIDER_NAMES.examples.slice(0, 3), ...MODEL_EXAMPLES.slice(0, 4)]),
};

export const control: Control<AiGovernanceControlId, Page> = {
  id: 'ai-governance.model-provider-and-version',
  branch: 'ai-governance',
  framework: 'Govern',
  requirement: 'Visible text or a named documentation link identifies both the model provider and a concrete model/version.',
  // Warning: naming the model is a transparency practice (AI RMF Govern) rather than a duty on
  // every page; a missing name is a gap to review.
  severity: 'warning',
  evaluate(page) {
    const corpus = corpusOf(page);
    const { identified, model, provider } = identify(corpus);
    if (identified !== undefined) return outcomes.identified(corpus, identified);
    const doc = documentationLink(corpus);
    if (doc !== undefined) return outcomes.linked(corpus, doc.target, doc.provider, doc.model);
    if (model !== undefined) return outcomes.providerMissing(corpus, model);
    if (provider !== undefined) return outcomes.versionMissing(corpus, provider);
    return page.likelyClientRendered ? outcomes.scriptRendered(page) : outcomes.notFound();
  },
};
