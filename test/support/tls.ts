// Test-time PKI: a throwaway CA and one leaf certificate signed by it. Nothing is committed to the
// repository and nothing expires between runs. Usage:
//
//   const pki = await makeTestPki(['fixture.test', '127.0.0.1']);
//   https.createServer({ key: pki.keyPem, cert: pki.certPem }, …)
//   createSafeFetcher({ …, ca: [pki.caPem] })
//
// Entries that are IP addresses become IP SANs, everything else DNS SANs. Results are cached per
// process by name list (EC P-256 keys, so a fresh PKI costs ~50 ms anyway). For "untrusted CA"
// tests, simply leave `ca` out of the client: the system store does not know this CA.

import { isIP } from 'node:net';
import { generate } from 'selfsigned';

export interface TestPki {
  caPem: string;
  certPem: string;
  keyPem: string;
}

const cache = new Map<string, Promise<TestPki>>();
let caPromise: Promise<{ cert: string; key: string }> | undefined;

function testCa(): Promise<{ cert: string; key: string }> {
  caPromise ??= generate([{ name: 'commonName', value: 'audit-service test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  }).then((r) => ({ cert: r.cert, key: r.private }));
  return caPromise;
}

/** A leaf certificate for `names` (DNS names and/or IPs) signed by the per-process test CA. */
export function makeTestPki(names: string[]): Promise<TestPki> {
  const key = names.join(',');
  let pki = cache.get(key);
  if (!pki) {
    pki = (async () => {
      const ca = await testCa();
      const leaf = await generate([{ name: 'commonName', value: names[0] ?? 'test' }], {
        keyType: 'ec',
        algorithm: 'sha256',
        ca,
        extensions: [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
          { name: 'extKeyUsage', serverAuth: true },
          {
            name: 'subjectAltName',
            altNames: names.map((n) => (isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n })),
          },
        ],
      });
      return { caPem: ca.cert, certPem: leaf.cert, keyPem: leaf.private };
    })();
    cache.set(key, pki);
  }
  return pki;
}
