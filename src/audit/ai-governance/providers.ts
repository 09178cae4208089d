// Model providers and their model families, as data: model-provider-and-version matches these
// and nothing else. To support a new provider or family, add a row here.
//
// Provider names are matched case-sensitively ("Meta", not "meta tags"); model patterns are
// lower-case regex sources matched on lower-cased text and must name a concrete model: a
// versioned family ("GPT-4o", "Llama 3.1 70B", "Gemini 1.5 Pro"), a named tier ("Claude 3.5
// Sonnet", "Mistral Large") or a model id ("claude-3-opus-20240229"). A bare family ("Claude",
// "Gemini", "Llama") is not concrete.
import { H } from './lexicon.ts';

export interface Provider {
  /** Canonical name, used in evidence. */
  name: string;
  /** Case-sensitive regex source for how the name is written. */
  pattern: string;
  /** Hosts (and their subdomains) whose links identify the provider. */
  domains: readonly string[];
}

export interface ModelFamily {
  /** Family name, used in evidence and "looked for" examples. */
  name: string;
  provider: string;
  /** Lower-case regex source of a concrete model of the family. */
  pattern: string;
  /** A typical concrete model, for "looked for" evidence. */
  example: string;
}

const V = String.raw`\d+(?:\.\d+)?`;

export const PROVIDERS: readonly Provider[] = [
  { name: 'OpenAI', pattern: 'OpenAI', domains: ['openai.com', 'chatgpt.com'] },
  { name: 'Anthropic', pattern: 'Anthropic', domains: ['anthropic.com', 'claude.ai', 'claude.com'] },
  { name: 'Google', pattern: 'Google(?: DeepMind| AI| Cloud| Research)?|DeepMind', domains: ['deepmind.google', 'deepmind.com', 'ai.google', 'ai.google.dev', 'gemini.google.com', 'cloud.google.com'] },
  { name: 'Meta', pattern: 'Meta(?: AI| Platforms)?', domains: ['ai.meta.com', 'llama.meta.com', 'llama.com'] },
  { name: 'Mistral AI', pattern: 'Mistral(?: AI)?', domains: ['mistral.ai'] },
  { name: 'Cohere', pattern: 'Cohere', domains: ['cohere.com', 'cohere.ai'] },
  { name: 'Microsoft', pattern: 'Microsoft(?: Azure)?|Azure OpenAI', domains: ['microsoft.com', 'azure.com'] },
  { name: 'Amazon', pattern: 'Amazon(?: Web Services| Bedrock)?|AWS', domains: ['aws.amazon.com', 'amazon.science'] },
  { name: 'IBM', pattern: 'IBM', domains: ['ibm.com'] },
  { name: 'Stability AI', pattern: 'Stability AI', domains: ['stability.ai'] },
  { name: 'Hugging Face', pattern: 'Hugging ?Face', domains: ['huggingface.co'] },
  { name: 'AI21 Labs', pattern: 'AI21(?: Labs)?', domains: ['ai21.com'] },
  { name: 'xAI', pattern: 'xAI', domains: ['x.ai'] },
  { name: 'Aleph Alpha', pattern: 'Aleph Alpha', domains: ['aleph-alpha.com'] },
  { name: 'NVIDIA', pattern: 'NVIDIA|Nvidia', domains: ['nvidia.com'] },
  { name: 'DeepSeek', pattern: 'DeepSeek', domains: ['deepseek.com'] },
  { name: 'Alibaba Cloud', pattern: 'Alibaba(?: Cloud)?|Qwen Team', domains: ['alibabacloud.com'] },
];

export const MODEL_FAMILIES: readonly ModelFamily[] = [
  { name: 'GPT', provider: 'OpenAI', example: 'GPT-4o', pattern: String.raw`gpt${H}(?:3\.5|4(?:\.\d)?|5(?:\.\d)?|[23])o?(?:[- ](?:turbo|mini|nano|pro|preview|instruct|\d{4}(?:-\d{2}-\d{2})?))*` },
  { name: 'OpenAI o-series', provider: 'OpenAI', example: 'OpenAI o1', pattern: String.raw`openai o[134](?:-(?:mini|pro|preview))?` },
  { name: 'DALL·E', provider: 'OpenAI', example: 'DALL·E 3', pattern: String.raw`dall(?:-|·| )?e(?: |-)?[23]` },
  { name: 'Whisper', provider: 'OpenAI', example: 'whisper-1', pattern: String.raw`whisper(?:-1|[- ](?:large|medium|small|base|tiny)(?:[- ]v\d)?)` },
  { name: 'OpenAI embeddings', provider: 'OpenAI', example: 'text-embedding-3-small', pattern: String.raw`text-embedding-(?:3-(?:small|large)|ada-002)` },
  { name: 'Claude', provider: 'Anthropic', example: 'Claude 3.5 Sonnet', pattern: String.raw`claude(?:[- ]\d(?:[.-]\d)?)?[- ](?:opus|sonnet|haiku|instant)(?:[- ]\d(?:\.\d)?)?(?:-\d{8}|-latest)?|claude[- ]\d(?:\.\d)?` },
  { name: 'Gemini', provider: 'Google', example: 'Gemini 1.5 Pro', pattern: String.raw`gemini[- ](?:\d\.\d(?:[- ](?:pro|flash|flash-lite|ultra|nano))?|\d[- ](?:pro|flash|ultra|nano))(?:[- ](?:\d{3}|exp|preview|latest))*` },
  { name: 'Gemma / PaLM', provider: 'Google', example: 'Gemma 2', pattern: String.raw`gemma[- ]?${V}(?:[- ]\d+b)?|palm[- ]?2|imagen[- ]\d|veo[- ]\d` },
  { name: 'Llama', provider: 'Meta', example: 'Llama 3.1 70B', pattern: String.raw`(?:meta-)?llama[- ]?${V}(?:[- ](?:\d+b|instruct|chat|vision|scout|maverick))*` },
  { name: 'Mistral', provider: 'Mistral AI', example: 'Mistral Large 2', pattern: String.raw`mistral[- ](?:large|medium|small|tiny|nemo|saba|7b)(?:[- ](?:${V}|latest|instruct|v\d(?:\.\d)?|\d{4}))*|mixtral[- ]8x(?:7|22)b|(?:codestral|pixtral|ministral)(?:[- ](?:\d+b|large|\d{4}|latest))*` },
  { name: 'Command', provider: 'Cohere', example: 'Command R+', pattern: String.raw`command[- ](?:r\+|r7b|r|a|light)(?:[- ](?:plus|\d{2}-\d{4}))*|(?:embed|rerank)[- ](?:english[- ]|multilingual[- ])?v\d(?:\.\d)?|aya[- ](?:\d+b|expanse|vision|23)` },
  { name: 'Phi', provider: 'Microsoft', example: 'Phi-3', pattern: String.raw`phi-${V}(?:[- ](?:mini|small|medium|vision|moe))*|orca[- ]2` },
  { name: 'Titan / Nova', provider: 'Amazon', example: 'Amazon Titan Text', pattern: String.raw`titan[- ](?:text|embeddings?|image|multimodal)(?:[- ](?:express|lite|premier|g1|v\d))*|nova[- ](?:pro|lite|micro|premier|canvas|reel|sonic)` },
  { name: 'Granite', provider: 'IBM', example: 'Granite 3.0', pattern: String.raw`granite[- ]${V}(?:[- ](?:\d+b|instruct|code))*` },
  { name: 'Stable Diffusion', provider: 'Stability AI', example: 'Stable Diffusion XL', pattern: String.raw`stable diffusion(?:[- ](?:xl|${V}|turbo))+|sdxl(?:[- ]turbo)?|stable (?:audio|lm)[- ]${V}` },
  { name: 'Jurassic / Jamba', provider: 'AI21 Labs', example: 'Jamba 1.5', pattern: String.raw`jurassic-?\d(?:[- ](?:ultra|mid|light|jumbo|grande|large))?|jamba(?:[- ](?:${V}|instruct|mini|large))+` },
  { name: 'Grok', provider: 'xAI', example: 'Grok-2', pattern: String.raw`grok[- ]?${V}(?:[- ](?:mini|vision|beta))*` },
  { name: 'Luminous', provider: 'Aleph Alpha', example: 'Luminous Supreme', pattern: String.raw`luminous[- ](?:base|extended|supreme)(?:[- ]control)?|pharia[- ]\d` },
  { name: 'Nemotron', provider: 'NVIDIA', example: 'Nemotron-4 340B', pattern: String.raw`nemotron(?:[- ](?:\d+b|${V}|ultra|super|nano))+` },
  { name: 'DeepSeek', provider: 'DeepSeek', example: 'DeepSeek-V3', pattern: String.raw`deepseek[- ](?:v\d(?:\.\d)?|r\d|coder(?:[- ]v\d)?|llm)` },
  { name: 'Qwen', provider: 'Alibaba Cloud', example: 'Qwen2.5', pattern: String.raw`qwen ?${V}(?:[- ](?:\d+b|max|plus|turbo|vl|coder|instruct))*` },
  { name: 'Hugging Face models', provider: 'Hugging Face', example: 'Zephyr-7B', pattern: String.raw`(?:zephyr|starcoder2?|smollm2?)-\d+(?:\.\d+)?[bm]|bloom-(?:\d+b\d?|560m)` },
];


const BY_DOMAIN = new Map(PROVIDERS.flatMap((p) => p.domains.map((d) => [d, p] as const)));

/** The provider whose domain (or a subdomain of it) hosts `host`, if any. */
export function providerOfHost(host: string): Provider | undefined {
  let domain = host.toLowerCase();
  for (;;) {
    const provider = BY_DOMAIN.get(domain);
    if (provider !== undefined) return provider;
    const dot = domain.indexOf('.');
    if (dot < 0) return undefined;
    domain = domain.slice(dot + 1);
  }
}
