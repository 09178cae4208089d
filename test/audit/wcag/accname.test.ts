// The accessible name (accname 1.2 with HTML-AAM sources), table-driven: each row is a page whose
// element with id="t" must get exactly this name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildPage } from '../../../src/audit/page.ts';
import { WcagContext } from '../../../src/audit/wcag/context.ts';

const cases: [string, string, string][] = [
  ['aria-labelledby wins over aria-label and content', '<span id="a">Alpha</span><span id="b">Beta</span><button id="t" aria-labelledby="a b" aria-label="No">Content</button>', 'Alpha Beta'],
  ['aria-labelledby takes hidden referenced text', '<span id="a" hidden>Secret label</span><a id="t" href="/" aria-labelledby="a">x</a>', 'Secret label'],
  ['a missing aria-labelledby target falls through', '<button id="t" aria-labelledby="nope">Save</button>', 'Save'],
  ['aria-label', '<a id="t" href="/" aria-label="  Close  ">×</a>', 'Close'],
  ['label for', '<label for="t">E-mail</label><input id="t">', 'E-mail'],
  ['a control embedded in another control’s label gives its value', '<span id="l">Remind me <select><option>daily</option><option selected>weekly</option></select></span><input type="checkbox" id="t" aria-labelledby="l">', 'Remind me weekly'],
  ['a control’s own value is not part of its name from a wrapping label', '<label>Size <select id="t"><option>S</option><option selected>M</option></select> cm</label>', 'Size cm'],
  ['name from content skips aria-hidden and display:none', '<button id="t">Buy <span aria-hidden="true">★</span><span style="display:none">now</span></button>', 'Buy'],
  ['img alt inside a link', '<a id="t" href="/"><img src="x.png" alt="Home"></a>', 'Home'],
  ['decorative img contributes nothing', '<a id="t" href="/"><img src="x.png" alt=""></a>', ''],
  ['block children are separated by spaces', '<a id="t" href="/"><div>Read</div><div>more</div></a>', 'Read more'],
  ['inline children are not', '<a id="t" href="/"><span>Re</span><span>ad</span></a>', 'Read'],
  ['title as a last resort', '<a id="t" href="/" title="Profile"></a>', 'Profile'],
  ['input button value; submit default', '<input id="t" type="submit">', 'Submit'],
  ['image button alt, no default name', '<input id="t" type="image" src="go.png">', ''],
  ['fieldset legend', '<fieldset id="t"><legend>Shipping</legend><input></fieldset>', 'Shipping'],
  ['table caption', '<table id="t"><caption>Prices</caption><tr><td>1</td></tr></table>', 'Prices'],
  ['svg title', '<svg id="t" role="img"><title>Chart</title></svg>', 'Chart'],
  ['a labelledby cycle ends', '<div id="t" role="button" aria-labelledby="u">x</div><div id="u" aria-labelledby="t">Loop</div>', 'Loop'],
  ['submit with value="" shows no text: no default name', '<input id="t" type="submit" value="">', ''],
  ['reset with value="" shows no text: no default name', '<input id="t" type="reset" value="">', ''],
  ['reset without value: default name', '<input id="t" type="reset">', 'Reset'],
  ['submit with value="" falls through to its title', '<input id="t" type="submit" value="" title="Send">', 'Send'],
  ['a password field’s value does not name the control it is embedded in', '<label>PIN <input type="password" value="1234"></label><input type="checkbox" id="t" aria-labelledby="l"><span id="l">Remember <input type="password" value="1234"></span>', 'Remember'],
  ['a style-sheet-hidden span is left out', '<style>.sr{display:none}</style><button id="t">Go<span class="sr"> away</span></button>', 'Go'],
];

describe('accessible name', () => {
  for (const [name, body, expected] of cases) {
    test(name, () => {
      const ctx = new WcagContext(buildPage(`<!doctype html><html lang="en"><body>${body}</body></html>`, 'https://e.example/'), { html: true });
      const el = ctx.byId('t')!;
      assert.equal(ctx.name(el), expected);
    });
  }
});
