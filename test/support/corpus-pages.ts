// The real-page corpora in ../shared (read-only, never copied into the repository): 258 news and
// tech pages from 2013 and 130 article pages from Mozilla Readability's test set.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sharedPath } from './shared.ts';

/** The corpora's paths inside the shared folder, for `sharedSuite` and `missingShared`. */
export const CORPORA = ['corpus/real-pages', 'corpus/readability-pages'];
const CORPUS_DIRS = CORPORA.map((relative) => sharedPath(relative));

export interface CorpusPage {
  name: string;
  html: string;
}

/** Every `.html` page of both corpora, read as UTF-8 (lossy for the few pages in other encodings). */
export function loadCorpusPages(): CorpusPage[] {
  const pages: CorpusPage[] = [];
  for (const dir of CORPUS_DIRS) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.html')).sort()) {
      pages.push({ name: `${path.basename(dir)}/${file}`, html: readFileSync(path.join(dir, file), 'utf8') });
    }
  }
  return pages;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
