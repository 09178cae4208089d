// node bench/parse-pathological.ts: buildPage on 2 MiB inputs known to be hard for an HTML5 tree
// builder (deep nesting, unclosed formatting elements, adoption agency and foster-parenting
// loops, formatting-element reconstruction multiplying elements, long scope scans). Prints each
// input's time and whether the page was analysed or refused (PageTooComplexError). A report,
// never a timed test; see src/audit/page/parse.ts for the bounds.
import { buildPage } from '../src/audit/page.ts';
const MiB = 2 * 1024 * 1024;
const fill = (unit: string, prefix = '') => prefix + unit.repeat(Math.floor((MiB - prefix.length) / unit.length));
const cases: Record<string, string> = {
  'nested <span>x': fill('<span>x'),
  'unclosed <b>': fill('<b>'),
  'unclosed <a>': fill('<a>x'),
  'unclosed <a href>': fill('<a href=/x>x'),
  'unclosed <table>': fill('<table>'),
  'nested <table><td>': fill('<table><td>'),
  '<b id>x1000 then <p>x': '<p>' + Array.from({ length: 1000 }, (_, i) => `<b id=${i}>`).join('') + fill('<p>x').slice(0, MiB - 12000),
  '<b id>x2000 then <p>x': '<p>' + Array.from({ length: 2000 }, (_, i) => `<b id=${i}>`).join('') + fill('<p>x').slice(0, MiB - 24000),
  'nested <div> 2000 then </p>': '<div>'.repeat(2000) + fill('</p>').slice(0, MiB - 10000),
  'nested <div> 2000 then </x>': '<div>'.repeat(2000) + fill('</x>').slice(0, MiB - 10000),
  '<b><div></b> adoption': fill('<b><div></b>'),
  '<a><div><a> adoption': fill('<a><div><a>'),
  '<table> foster text': '<table>' + fill('x<b>'),
  'nested <svg>': fill('<svg>'),
  'nested <select><option>': fill('<option>'),
  '<i><b><u><s> + </p>': fill('<i><b><u><s><p></p>'),
  '<template> nested': fill('<template>'),
  'deep <li><ul>': fill('<ul><li>'),
  'many <td>': '<table><tr>' + fill('<td>'),
  'comments': fill('<!--x-->'),
  'attrs': '<p ' + fill('a=b ') + '>',
};
for (const [name, html] of Object.entries(cases)) {
  const t = performance.now();
  let result = '';
  try { const p = buildPage(html, 'https://a.test/'); result = `ok, ${p.elementCount} elements`; }
  catch (e) { result = `${(e as Error).name}: ${(e as Error).message}`; }
  console.log(`${name.padEnd(32)} ${(html.length / 1024).toFixed(0).padStart(5)} KiB ${(performance.now() - t).toFixed(0).padStart(6)} ms  ${result}`);
}
