// The AI step's settings (AUDIT_AI_*), in the manner of test/config.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AI_TIMEOUT_DEFAULT_MS, ConfigError, loadConfig } from '../../../../src/config.ts';

const KEY = 'sk-test-0123456789abcdef';

test('without AUDIT_AI_BASE_URL the AI step is not configured', () => {
  assert.equal(loadConfig({}).ai, undefined);
  assert.equal(loadConfig({ AUDIT_AI_BASE_URL: '  ' }).ai, undefined);
});

test('values are read: base without trailing slash, optional key, model, default and set timeout', () => {
  assert.deepEqual(loadConfig({ AUDIT_AI_BASE_URL: 'http://127.0.0.1:11434/v1/', AUDIT_AI_MODEL: 'llama3.1:8b' }).ai, {
    baseUrl: 'http://127.0.0.1:11434/v1',
    apiKey: undefined,
    model: 'llama3.1:8b',
    timeoutMs: AI_TIMEOUT_DEFAULT_MS,
  });
  assert.deepEqual(
    loadConfig({ AUDIT_AI_BASE_URL: 'https://api.example.com/v1', AUDIT_AI_MODEL: 'gpt-4o-mini', AUDIT_AI_API_KEY: KEY, AUDIT_AI_TIMEOUT_MS: '5000' }).ai,
    { baseUrl: 'https://api.example.com/v1', apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 },
  );
});

const bad: [string, Record<string, string>, RegExp][] = [
  ['not a URL', { AUDIT_AI_BASE_URL: 'localhost:11434', AUDIT_AI_MODEL: 'm' }, /^AUDIT_AI_BASE_URL must/],
  ['relative', { AUDIT_AI_BASE_URL: '/v1', AUDIT_AI_MODEL: 'm' }, /^AUDIT_AI_BASE_URL must be an absolute http\(s\) URL/],
  ['not http(s)', { AUDIT_AI_BASE_URL: 'ftp://127.0.0.1/v1', AUDIT_AI_MODEL: 'm' }, /^AUDIT_AI_BASE_URL must use http or https/],
  ['credentials in the URL', { AUDIT_AI_BASE_URL: 'https://user:secret@api.example.com/v1', AUDIT_AI_MODEL: 'm' }, /^AUDIT_AI_BASE_URL must not contain credentials/],
  ['a query', { AUDIT_AI_BASE_URL: 'https://api.example.com/v1?key=x', AUDIT_AI_MODEL: 'm' }, /^AUDIT_AI_BASE_URL must not have a query/],
  ['no model', { AUDIT_AI_BASE_URL: 'http://127.0.0.1:11434/v1' }, /^AUDIT_AI_MODEL is required/],
  ['model without base', { AUDIT_AI_MODEL: 'm' }, /^AUDIT_AI_MODEL is set but AUDIT_AI_BASE_URL is not/],
  ['key without base', { AUDIT_AI_API_KEY: KEY }, /^AUDIT_AI_API_KEY is set but AUDIT_AI_BASE_URL is not/],
  ['key with a space', { AUDIT_AI_BASE_URL: 'http://127.0.0.1/v1', AUDIT_AI_MODEL: 'm', AUDIT_AI_API_KEY: 'sk bad' }, /^AUDIT_AI_API_KEY must be printable ASCII/],
  ['timeout too small', { AUDIT_AI_BASE_URL: 'http://127.0.0.1/v1', AUDIT_AI_MODEL: 'm', AUDIT_AI_TIMEOUT_MS: '10' }, /^AUDIT_AI_TIMEOUT_MS must be an integer between 100 and 300000/],
  ['timeout too large', { AUDIT_AI_BASE_URL: 'http://127.0.0.1/v1', AUDIT_AI_MODEL: 'm', AUDIT_AI_TIMEOUT_MS: '3600000' }, /^AUDIT_AI_TIMEOUT_MS/],
  ['timeout not a number', { AUDIT_AI_BASE_URL: 'http://127.0.0.1/v1', AUDIT_AI_MODEL: 'm', AUDIT_AI_TIMEOUT_MS: 'soon' }, /^AUDIT_AI_TIMEOUT_MS/],
];
for (const [name, env, message] of bad) {
  test(`a bad AI setting stops start-up with a message naming the variable: ${name}`, () => {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  });
}

test('no start-up message repeats the API key or URL credentials', () => {
  const cases: Record<string, string>[] = [
    { AUDIT_AI_API_KEY: KEY },
    { AUDIT_AI_BASE_URL: 'https://user:secret@api.example.com/v1', AUDIT_AI_MODEL: 'm', AUDIT_AI_API_KEY: KEY },
    { AUDIT_AI_BASE_URL: 'http://127.0.0.1/v1', AUDIT_AI_API_KEY: KEY },
    { AUDIT_AI_BASE_URL: 'http://127.0.0.1/v1', AUDIT_AI_MODEL: 'm', AUDIT_AI_API_KEY: `${KEY} x` },
  ];
  for (const env of cases) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && !error.message.includes(KEY) && !error.message.includes('secret'),
    );
  }
});
