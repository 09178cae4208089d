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

export async function listenForDeliveries(connectionString: string, onNotify: () => void, log: ListenLog): Promise<Listener> {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      if (message.channel === DELIVERY_CHANNEL) onNotify();
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'webhook LISTEN connection failed; polling until it is back');
      if (client === next) {
        client = undefined;
        void next.end().catch(() => {});
        schedule();
      }
    });
    await next.connect();
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
        retryMs = Math.min(retryMs * 2, 30_000);
        schedule();
      });
    }, retryMs);
  }

  await connect();
  log.info({ channel: DELIVERY_CHANNEL }, 'listening for committed webhook deliveries');
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
