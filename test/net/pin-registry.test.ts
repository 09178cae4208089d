// The connect-time lookup hook in isolation: both callback forms net may ask for, family filters,
// and failing closed for hosts that were never validated.
import assert from 'node:assert/strict';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { test } from 'node:test';
import { createPinRegistry } from '../../src/net/safe-fetch.ts';

interface Answer {
  err: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family: number | undefined;
  sync: boolean;
}

function ask(lookup: ReturnType<typeof createPinRegistry>['lookup'], host: string, options: LookupOptions): Promise<Answer> {
  return new Promise((resolve) => {
    let returned = false;
    lookup(host, options, (err, address, family) => resolve({ err, address, family, sync: !returned }));
    returned = true;
  });
}

const pinned = [
  { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 as const },
  { address: '93.184.215.14', family: 4 as const },
];

const CASES: [string, LookupOptions, string | LookupAddress[] | 'ENOTPINNED', number | undefined][] = [
  ['all: true returns every pinned address in order', { all: true }, pinned, undefined],
  ['single form returns the first', {}, '2606:2800:21f:cb07:6820:80da:af6b:8b2c', 6],
  ['family 4 filter', { family: 4 }, '93.184.215.14', 4],
  ['family "IPv6" filter with all', { family: 'IPv6', all: true }, [pinned[0]!], undefined],
];

for (const [name, options, expected, family] of CASES) {
  test(name, async () => {
    const registry = createPinRegistry();
    const release = registry.pin('example.com', pinned);
    const answer = await ask(registry.lookup, 'example.com', options);
    release();
    assert.equal(answer.err, null);
    assert.equal(answer.sync, false, 'answers asynchronously');
    assert.deepEqual(answer.address, expected);
    assert.equal(answer.family, family);
  });
}

test('unpinned host, released pin, or no address of the wanted family → ENOTPINNED', async () => {
  const registry = createPinRegistry();
  assert.equal((await ask(registry.lookup, 'never.example', { all: true })).err?.code, 'ENOTPINNED');
  registry.pin('example.com', [pinned[1]!])();
  assert.equal((await ask(registry.lookup, 'example.com', {})).err?.code, 'ENOTPINNED');
  const release = registry.pin('example.com', [pinned[1]!]);
  assert.equal((await ask(registry.lookup, 'example.com', { family: 6 })).err?.code, 'ENOTPINNED');
  release();
});

test('overlapping requests: releasing one keeps the other pinned', async () => {
  const registry = createPinRegistry();
  const releaseA = registry.pin('example.com', [pinned[0]!]);
  const releaseB = registry.pin('example.com', [pinned[1]!]);
  releaseB();
  assert.equal((await ask(registry.lookup, 'example.com', {})).address, pinned[0]!.address);
  releaseA();
  assert.equal((await ask(registry.lookup, 'example.com', {})).err?.code, 'ENOTPINNED');
});
