import { createServer, type Server } from 'node:http';

/** /health and /ready for a service without an HTTP API of its own (docker compose health checks). */
export async function startHealthServer(
  port: number,
  ready: () => Promise<boolean | { status: number; body: unknown }>,
  /** more for /health to say (the workers: whose ffmpeg runs) */
  about: Record<string, string> = {},
): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/health') return send(200, { status: 'ok', ...about });
    if (req.url === '/ready') {
      ready()
        .then((r) =>
          typeof r === 'boolean'
            ? send(r ? 200 : 503, { status: r ? 'ready' : 'catching-up' })
            : send(r.status, r.body),
        )
        .catch(() => send(503, { status: 'error' }));
      return;
    }
    send(404, { error: 'Ressource introuvable.' });
  });
  await new Promise<void>((r) => server.listen(port, r));
  return server;
}
