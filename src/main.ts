// Process entry: `serve` (default), `migrate`, and `keys create|list|revoke`.
// `npm start` runs `serve`; `npm run cli -- keys create` manages API keys.
import { parseArgs } from 'node:util';
import { buildApp } from './app.ts';
import { createApiKey, ensureSeedKey, listApiKeys, revokeApiKey } from './auth/api-keys.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/connect.ts';
import { DataDirLockedError } from './db/dir-lock.ts';
import { createAddressPolicy } from './net/address-policy.ts';
import { createSafeFetcher } from './net/safe-fetch.ts';

const USAGE = `Usage:
  node src/main.ts serve                     run the HTTP service (npm start)
  node src/main.ts migrate                   apply database migrations and exit
  node src/main.ts keys create [--label L]   create an API key; prints the raw key once, on the last line
  node src/main.ts keys list                 list keys: id, display, created, revoked, label
  node src/main.ts keys revoke <id>          revoke a key by id`;

async function serve(config: Config): Promise<void> {
  const database = await openDatabase(config);
  const policy = createAddressPolicy(config.allowPrivateNetworks);
  const fetcher = createSafeFetcher({ policy, staticResolve: config.staticResolve });
  const app = await buildApp({ config, db: database.db, fetcher });
  if (config.seedApiKey) {
    await ensureSeedKey(database.db, config.seedApiKey, app.log);
  } else {
    app.log.warn('AUDIT_SEED_API_KEY is not set; create a key with `npm run cli -- keys create`');
  }
  if (database.kind === 'pglite') {
    app.log.info({ dataDir: config.dataDir }, 'embedded PGlite database (fsync off: set DATABASE_URL to use PostgreSQL in production)');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await fetcher.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ host: config.host, port: config.port });
}

async function withDatabase<T>(config: Config, work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = await openDatabase(config);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

function formatDate(date: Date | null): string {
  return date ? date.toISOString() : '-';
}

async function keys(config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { label: { type: 'string' } }, allowPositionals: true });
  const [action, ...rest] = positionals;
  switch (action) {
    case 'create': {
      const created = await withDatabase(config, (d) => createApiKey(d.db, values.label ?? null));
      console.log(`Created API key ${created.id}. Store it now: it is shown only once and cannot be recovered.`);
      console.log(created.rawKey);
      return 0;
    }
    case 'list': {
      const rows = await withDatabase(config, (d) => listApiKeys(d.db));
      console.log(['id', 'display', 'created', 'revoked', 'label'].join('\t'));
      for (const row of rows) {
        console.log([row.id, row.display, formatDate(row.createdAt), formatDate(row.revokedAt), row.label ?? ''].join('\t'));
      }
      return 0;
    }
    case 'revoke': {
      const id = rest[0];
      if (!id) break;
      const result = await withDatabase(config, (d) => revokeApiKey(d.db, id));
      const messages = { revoked: `Revoked ${id}.`, 'already-revoked': `${id} was already revoked.`, 'not-found': `No key with id ${id}.` };
      (result === 'not-found' ? console.error : console.log)(messages[result]);
      return result === 'not-found' ? 1 : 0;
    }
  }
  console.error(USAGE);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      await serve(config);
      return 0;
    case 'migrate':
      await withDatabase(config, async () => {});
      console.log('Database is at the latest migration.');
      return 0;
    case 'keys':
      return keys(config, rest);
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(`error: ${error.message}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
