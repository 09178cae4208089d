// A page whose WCAG analysis takes far longer than any budget the tests set (tens of seconds on the
// rule engine of today: every <style> element restarts the cascade over the elements before it).
// Small on the wire (~700 KB, within the crawl's 2 MB) and ordinary HTML otherwise. Should the
// cascade become cheap for it, make this page slow another way: the tests only need it to outlast
// their budget, never a particular time.
export const SLOW_PAGE_REPEATS = 20_000;

export function slowPage(repeats = SLOW_PAGE_REPEATS): string {
  return `<!doctype html><html lang="en"><head><title>Slow</title></head><body>${'<style>p{color:red}</style><p>x</p>'.repeat(repeats)}</body></html>`;
}
