import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { ReadStore } from '@evo/infra';
import { identityQueries } from '@evo/projections';
import type { Sessions } from './session';

/**
 * Socket.IO on the API server. A client is identified by its session cookie, never by what it
 * says: it joins `user:<id>` (and `admins` for administrators) and receives the change
 * messages projectors publish there.
 */
export function createSocketServer(http: HttpServer, sessions: Sessions, read: ReadStore): Server {
  const io = new Server(http, { serveClient: false, cors: undefined });
  const queries = identityQueries(read);
  io.use((socket, next) => {
    sessions
      .fromCookieHeader(socket.handshake.headers.cookie)
      .then(async (session) => {
        if (!session) return next(new Error('Vous devez être connecté.'));
        socket.data.userId = session.userId;
        await socket.join(`user:${session.userId}`);
        const user = await queries.userById(session.userId);
        if (user?.is_admin) await socket.join('admins');
        next();
      })
      .catch(next);
  });
  return io;
}
