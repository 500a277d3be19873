import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

/** The client connection preface every HTTP/2 connection opens with (RFC 9113 §3.4). */
const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

/** The HTTP/2 side of a server that also speaks HTTP/1.1 on the same port. */
export interface H2cSide {
  /** Asks every HTTP/2 session to finish its streams and close (GOAWAY). */
  close(): void;
  /** Cuts every HTTP/2 connection still open. */
  destroy(): void;
}

/**
 * Makes `server` accept cleartext HTTP/2 with prior knowledge (h2c) beside HTTP/1.1, on the same
 * port, for clients that only speak HTTP/2 to an `http://` endpoint (the AWS SDK's Bedrock
 * Runtime client does by default). Each connection's first bytes decide: the HTTP/2 preface goes
 * to a node:http2 server whose requests reach `listener` through the compatibility API, anything
 * else to `server` as before. HTTP/1.1 costs one look at each connection's first chunk, never a
 * look per request.
 */
export function acceptH2c(
  server: Server,
  listener: (request: IncomingMessage, response: ServerResponse) => void,
  /** How long a connection may stay silent before its first bytes decide its protocol (the headers timeout). */
  firstBytesMs: number,
): H2cSide {
  const h2 = createHttp2Server({}, listener as never);
  const sessions = new Set<Http2Session>();
  const sockets = new Set<Socket>();
  h2.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const http1 = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    let head: Buffer = Buffer.alloc(0);
    const decide = (chunk: Buffer): void => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const length = Math.min(head.length, preface.length);
      const h2c = head.subarray(0, length).equals(preface.subarray(0, length));
      // A first read shorter than the preface that matches it so far (`P`…) decides nothing yet.
      if (h2c && head.length < preface.length) return;
      socket.off('data', decide);
      clearTimeout(silent);
      if (h2c) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        h2.emit('connection', relay(socket, head));
        return;
      }
      socket.pause();
      socket.unshift(head);
      for (const accept of http1) accept.call(server, socket);
      socket.resume();
    };
    socket.on('data', decide);
    // Until a server owns it, no timeout of theirs applies: a connection that never decides is cut here.
    const silent = setTimeout(() => socket.destroy(), firstBytesMs);
    socket.once('close', () => clearTimeout(silent));
  });
  return {
    close: () => {
      for (const session of sessions) session.close();
    },
    destroy: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * The socket as a plain stream that starts with the bytes already read: node:http2 reads a
 * real socket straight from its handle, past anything put back into the stream, so it gets a
 * stream of its own (which it wraps itself).
 */
function relay(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read: () => void socket.resume(),
    write: (chunk: Buffer, _encoding, done) => void socket.write(chunk, done),
    final: (done) => void socket.end(done),
    destroy: (error, done) => {
      socket.destroy(error ?? undefined);
      done(error);
    },
  });
  stream.push(first);
  socket.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.once('end', () => stream.push(null));
  socket.once('close', () => stream.destroy());
  socket.once('error', (error) => stream.destroy(error));
  return Object.assign(stream, {
    remoteAddress: socket.remoteAddress,
    remotePort: socket.remotePort,
    localAddress: socket.localAddress,
    localPort: socket.localPort,
  });
}
