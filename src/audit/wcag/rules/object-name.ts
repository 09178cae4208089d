// ACT 8fc3b6 (axe object-alt): an `<object>` (or `<embed>`) that renders an image, audio or video
// has a text alternative, its accessible name (aria-labelledby, aria-label, title; neither `alt`
// nor fallback content names it). What the element renders is known to the browser from the
// fetched resource; static HTML has only the `type` attribute and the URL's extension (or a data
// URL's type): with neither telling, an element without a name is cantTell, never a guessed fail.
// An embedded HTML document (a frame in all but name) is not non-text content, and plug-in content
// (Flash, Java, Silverlight) is run by no current browser, which renders the fallback content
// instead (checked by the other rules): both inapplicable, as in ACT's applicability.
import type { Element } from 'domhandler';
import { explicitRole } from '../aria.ts';
import type { WcagContext } from '../context.ts';
import { cantTell, failed, passed, type RuleResult, type WcagRule } from './rule.ts';

type Rendered = 'media' | 'document' | 'plugin' | 'unknown';

const MEDIA_TYPES = /^(?:image|audio|video)\//;
const DOCUMENT_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain']);
const MEDIA_EXTENSIONS = new Set([
  'apng', 'avif', 'bmp', 'gif', 'ico', 'jpeg', 'jpg', 'png', 'svg', 'tif', 'tiff', 'webp',
  'aac', 'flac', 'm4a', 'mp3', 'oga', 'ogg', 'opus', 'wav', 'weba',
  'avi', 'm4v', 'mkv', 'mov', 'mp4', 'mpeg', 'mpg', 'ogv', 'webm',
]);
const DOCUMENT_EXTENSIONS = new Set(['htm', 'html', 'xhtml', 'txt']);
/** Plug-in content no current browser runs (Flash, Java applets, Silverlight): the fallback content renders instead. */
const PLUGIN_TYPES = new Set(['application/x-shockwave-flash', 'application/futuresplash', 'application/x-java-applet', 'application/java', 'application/x-silverlight', 'application/x-silverlight-2']);
const PLUGIN_EXTENSIONS = new Set(['swf', 'spl', 'class', 'jar', 'xap']);

/** What the resource is, from a MIME type's essence. */
function byMimeType(type: string): Rendered {
  const essence = type.split(';')[0]!.trim().toLowerCase();
  if (MEDIA_TYPES.test(essence)) return 'media';
  if (DOCUMENT_TYPES.has(essence)) return 'document';
  if (PLUGIN_TYPES.has(essence)) return 'plugin';
  return 'unknown';
}

/** What an `<object data>` or `<embed src>` renders, as far as its markup says. */
export function renderedKind(el: Element, url: string): Rendered {
  const type = (el.attribs.type ?? '').trim();
  if (type !== '') return byMimeType(type);
  const data = /^\s*data:([^,;]*)/i.exec(url);
  if (data !== null) return data[1]!.trim() === '' ? 'document' : byMimeType(data[1]!);
  const path = url.trim().split(/[?#]/)[0]!;
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (extension === undefined) return 'unknown';
  if (MEDIA_EXTENSIONS.has(extension)) return 'media';
  if (DOCUMENT_EXTENSIONS.has(extension)) return 'document';
  if (PLUGIN_EXTENSIONS.has(extension)) return 'plugin';
  return 'unknown';
}

function objectResult(ctx: WcagContext, el: Element, url: string): RuleResult | undefined {
  if (explicitRole(el) !== null) return undefined;
  const included = ctx.isIncluded(el);
  if (included === false) return undefined;
  const kind = renderedKind(el, url);
  if (kind === 'document' || kind === 'plugin') return undefined;
  if (ctx.name(el) !== '') return passed(el);
  const what = `<${el.name}>`;
  if (kind === 'unknown') {
    const type = (el.attribs.type ?? '').trim();
    return cantTell(el, `${what} without a name: whether it renders non-text content depends on its resource (${type === '' ? 'no type' : `type ${type.slice(0, 40)}`})`);
  }
  if (included === undefined) return cantTell(el, ctx.undecidedCss(`${what} without a name, whose visibility depends on undecidable CSS`));
  return failed(el, `${what} rendering an image, audio or video has no text alternative (aria-label, aria-labelledby or title)`);
}

export const objectName: WcagRule = {
  id: 'object-name',
  actRules: ['8fc3b6'],
  criteria: ['1.1.1'],
  applicability:
    'An `<object>` with `data` or an `<embed>` with `src`, with no explicit role, included in the accessibility tree, that does not embed an HTML document or plug-in content (Flash, Java, Silverlight) by `type` or extension.',
  expectation: 'It has a non-empty accessible name.',
  *evaluate(ctx) {
    const targets: [Element, string][] = [];
    for (const el of ctx.tagged('object')) if (el.attribs.data !== undefined && el.attribs.data.trim() !== '') targets.push([el, el.attribs.data]);
    for (const el of ctx.tagged('embed')) if (el.attribs.src !== undefined && el.attribs.src.trim() !== '') targets.push([el, el.attribs.src]);
    targets.sort(([a], [b]) => ctx.position(a) - ctx.position(b));
    for (const [el, url] of targets) {
      const result = objectResult(ctx, el, url);
      if (result !== undefined) yield result;
    }
  },
};
