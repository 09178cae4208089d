// Wake-ups across processes on PostgreSQL: a dedicated connection LISTENs on the outbox channel
// that the audit transaction NOTIFYs at commit. If the connection drops, it reconnects with a
// growing pause; the worker's polling covers the gap, so a lost notification only delays.
import pg from 'pg';
import { DELIVERY_CHANNEL } from './outbox.ts';

export interface ListenLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * Never throws for an unreachable database: the first connection is retried like any later one,
 * so a process that starts during an outage picks up wake-ups once the database is back.
 */
export async function listenForDeliveries(
  connectionString: string,
  onNotify: () => void,
  log: ListenLog,
  options: { connectTimeoutMs?: number } = {},
): Promise<Listener> {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: options.connectTimeoutMs ?? 2000, keepAlive: true });
    const lost = (error: unknown) => {
      if (client !== next) return;
      log.warn({ err: error }, 'webhook LISTEN connection lost; polling until it is back');
      client = undefined;
      void next.end().catch(() => {});
      schedule();
    };
    next.on('notification', (message) => {
      if (message.channel === DELIVERY_CHANNEL) onNotify();
    });
    // A restart sends 57P01 then closes; a reset or a crash just closes. Either way, reconnect.
    next.on('error', lost);
    next.on('end', () => lost(new Error('connection ended')));
    try {
      await next.connect();
      await next.query(`listen ${DELIVERY_CHANNEL}`);
    } catch (error) {
      void next.end().catch(() => {});
      throw error;
    }
    await next.query(`listen ${DELIVERY_CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    retryMs = 500;
    // Whatever was committed while we were not listening is due now.
    onNotify();
  }

  function schedule(): void {
    if (closed) return;
    timer = setTimeout(() => {
      connect().catch((error: unknown) => {
        log.warn({ err: error }, 'webhook LISTEN reconnect failed');
        retryMs = Math.min(retryMs * 2, 5_000);
        schedule();
      });
    }, retryMs);
  }

  try {
    await connect();
    log.info({ channel: DELIVERY_CHANNEL }, 'listening for committed webhook deliveries');
  } catch (error) {
    log.warn({ err: error }, 'webhook LISTEN connection failed; polling until it is back');
    schedule();
  }
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
