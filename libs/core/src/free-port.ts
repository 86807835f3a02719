import { createServer } from 'node:net';
import { randomInt } from 'node:crypto';

/**
 * Ports handed to processes that bind them later (the local launcher, a Redis server for tests) are
 * taken below Linux's default ephemeral range (32768–60999). A port picked with `listen(0)` comes from
 * that range, and between the pick and the later bind every outgoing connection on the machine may be
 * given it as its source port (seen as EADDRINUSE under load). Picking at random from 20000–32767 leaves
 * only a collision with another picker, which is rare and caught by the check below.
 */
const LOW = 20_000;
const HIGH = 32_767;

/**
 * Ports this process handed out: none is bound until its process starts, so the check alone would let
 * one launcher pick the same port twice (14 picks per local system).
 */
const handedOut = new Set<number>();

/** A TCP port on 127.0.0.1 that was free a moment ago, outside the ephemeral range, not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = randomInt(LOW, HIGH + 1);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port found between ${LOW} and ${HIGH}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
