// A TCP proxy on loopback in front of PostgreSQL, to do to the service what networks and operators
// do to a database: reset every connection, refuse new ones (the server is down), or black-hole
// the traffic (a partition: connections stay open, nothing arrives) and heal it.
//
// A black hole holds the bytes and forwards them on heal, as TCP's retransmission would: the
// connection is intact afterwards unless one side gave up on it meanwhile.
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** The connection string with its host and port replaced by the proxy's. */
  via(connectionString: string): string;
  /** Destroys every open connection (both sides see a reset). */
  reset(): void;
  /** Stops listening (new connections are refused) and resets the open ones. */
  refuse(): Promise<void>;
  /** Listens again on the same port. */
  accept(): Promise<void>;
  /** Holds every byte in both directions, on open and new connections, until heal(). */
  blackhole(): void;
  heal(): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const held: (() => void)[] = [];
  let holding = false;
  let accepted = 0;

  /** Forwards `from` to `to`, or keeps the chunks for later while the hole lasts. */
  function forward(from: net.Socket, to: net.Socket): void {
    from.on('data', (chunk) => {
      if (holding) held.push(() => to.destroyed || to.write(chunk));
      else if (!to.destroyed) to.write(chunk);
    });
  }

  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        (socket === client ? upstream : client).destroy();
      });
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  const proxy: TcpProxy = {
    port,
    via(connectionString) {
      const url = new URL(connectionString);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.href;
    },
    reset() {
      for (const socket of [...sockets]) socket.resetAndDestroy();
    },
    async refuse() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      proxy.reset();
      await closed;
    },
    async accept() {
      if (server.listening) return;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    },
    blackhole() {
      holding = true;
    },
    heal() {
      holding = false;
      for (const send of held.splice(0)) send();
    },
    get accepted() {
      return accepted;
    },
    async close() {
      proxy.heal();
      if (server.listening) await proxy.refuse();
      else proxy.reset();
    },
  };
  return proxy;
}
