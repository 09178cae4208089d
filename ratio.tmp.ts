import { buildPage } from './src/audit/page.ts';
import { loadCorpusPages } from './test/support/corpus-pages.ts';
let worst = 0, wn = '', maxEl = 0;
for (const { name, html } of loadCorpusPages()) { const p = buildPage(html, 'https://a.test/'); const r = p.elementCount / html.length; if (r > worst) { worst = r; wn = name; } maxEl = Math.max(maxEl, p.elementCount); }
console.log(worst, wn, maxEl);
