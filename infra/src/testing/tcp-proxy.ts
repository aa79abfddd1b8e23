// A TCP proxy of the tests' own, to cut a server away from a process and bring it back.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './ferretdb';

/**
 * A TCP proxy in front of a server (Redis, PostgreSQL, …): `close()` drops every connection and
 * stops listening (the process behind sees the server gone), `open()` listens again on the same port.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * An open proxy on a free port in front of the server of `url` (its port, or `defaultPort`), and
 * `url` through it: a client given that URL loses the server when the proxy closes.
 */
export async function proxyTo(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = new TcpProxy(await freePort(), { host: target.hostname, port: Number(target.port || defaultPort) });
  await proxy.open();
  const through = new URL(url);
  through.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: through.toString() };
}
