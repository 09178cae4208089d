// Time-based media and motion (WCAG 1.2.x, 1.4.2, 2.2.2): static HTML shows where such content
// is, not whether its captions, descriptions, alternatives or controls suffice; that takes the
// media itself and a person. Each media occurrence is cantTell, so the criterion is reported as
// inconclusive exactly where it applies. `<marquee>` and `<blink>` are the exception: the
// elements themselves move or blink and offer no control, so they fail 2.2.2 (as axe's marquee
// and blink rules do).
import type { Element } from 'domhandler';
import { cantTell, failed, passed, type WcagRule } from './rule.ts';

export const videoAlternatives: WcagRule = {
  id: 'video-alternatives',
  actRules: ['eac66b', 'f51b46', 'c5a4ea', '1ec09b', '1ea59c', 'c3232f', 'ab4d13', 'fd26cf', 'd7ba54', 'ee13b5'],
  criteria: ['1.2.1', '1.2.2', '1.2.3', '1.2.5'],
  applicability: 'A rendered `<video>` element.',
  expectation: 'Captions, audio description or a media alternative are provided (needs the media).',
  *evaluate(ctx) {
    for (const el of ctx.tagged('video')) {
      if (ctx.isRendered(el) === false) continue;
      const tracks = el.children.filter((c) => c.type === 'tag' && (c as import('domhandler').Element).name === 'track').length;
      yield cantTell(el, tracks > 0 ? 'a video with text tracks: whether they caption and describe it needs the media' : 'a video: captions, description or an alternative need the media to check');
    }
  },
};

export const audioAlternatives: WcagRule = {
  id: 'audio-alternatives',
  actRules: ['e7aa44', '2eb176', 'afb423'],
  criteria: ['1.2.1'],
  applicability: 'A rendered `<audio>` element.',
  expectation: 'A transcript or text alternative is provided (needs the media).',
  *evaluate(ctx) {
    for (const el of ctx.tagged('audio')) {
      if (ctx.isRendered(el) !== false || el.attribs.controls !== undefined) yield cantTell(el, 'audio: whether a transcript is provided needs the media');
    }
  },
};

export const autoplayAudio: WcagRule = {
  id: 'autoplay-audio',
  actRules: ['80f0bf', 'aaa1bf', '4c31df'],
  criteria: ['1.4.2'],
  applicability: 'An `<audio>` or `<video>` that plays automatically and is not muted.',
  expectation: 'It plays no more than 3 seconds of audio, or offers a way to pause or mute it (needs the media).',
  *evaluate(ctx) {
    for (const tag of ['audio', 'video']) {
      for (const el of ctx.tagged(tag)) {
        if (el.attribs.autoplay === undefined || el.attribs.muted !== undefined) continue;
        yield cantTell(el, 'media plays automatically: how long its audio lasts and how to stop it needs the media');
      }
    }
  },
};

/**
 * How a `<marquee>` moves, from its attributes (HTML's obsolete marquee section): a scroll amount
 * of 0 never moves it; a finite `loop` count stops it after that many passes, which may or may
 * not end within the 5 s of the exception.
 */
function marqueeMotion(el: Element): 'still' | 'stops' | 'endless' {
  const amount = /^\s*(\d+)/.exec(el.attribs.scrollamount ?? '');
  if (amount !== null && Number.parseInt(amount[1]!, 10) === 0) return 'still';
  const loop = /^\s*(-?\d+)/.exec(el.attribs.loop ?? '');
  if (loop !== null && Number.parseInt(loop[1]!, 10) > 0) return 'stops';
  return 'endless';
}

export const movingContent: WcagRule = {
  id: 'moving-content',
  actRules: [],
  criteria: ['2.2.2'],
  applicability: 'A visible `<marquee>` or `<blink>` element.',
  expectation: 'It does not move or blink: neither element offers a way to pause, stop or hide it (a `<marquee>` with scrollamount 0 does not move).',
  *evaluate(ctx) {
    for (const tag of ['marquee', 'blink']) {
      for (const el of ctx.tagged(tag)) {
        const visible = ctx.isVisible(el);
        if (visible === false) continue;
        const motion = tag === 'marquee' ? marqueeMotion(el) : 'endless';
        if (motion === 'still') yield passed(el);
        else if (motion === 'stops') yield cantTell(el, `<marquee loop="${el.attribs.loop!.trim()}"> stops after its loops: whether within 5 s depends on its content and speed`);
        else if (visible === undefined) yield cantTell(el, ctx.undecidedCss(`<${tag}> moves content without a way to pause it; its visibility depends on undecidable CSS`));
        else if (tag === 'blink') yield failed(el, '<blink> blinks content with no way to pause, stop or hide it');
        // A script that stops it under the mouse (onmouseover="stop()") is no keyboard mechanism.
        else yield failed(el, el.attribs.onmouseover === undefined ? '<marquee> scrolls content with no way to pause, stop or hide it' : '<marquee> scrolls content; at most a mouse hover pauses it, with no keyboard way to pause, stop or hide it');
      }
    }
  },
};
