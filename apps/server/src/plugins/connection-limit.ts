import proxyAddr from '@fastify/proxy-addr';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The open connections one address has (its socket address, before any request is read),
 * so that one client cannot hold every file descriptor with slow requests and starve
 * everybody else (health checks and sign-ins included). A connection over
 * MAX_CONNECTIONS_PER_ADDRESS is closed as soon as it is accepted. The proxies TRUST_PROXY
 * names are not capped: every client arrives through them, and they cap per client
 * themselves (deploy/nginx.conf's limit_conn). IPv6 addresses count by their /64, which a
 * single client usually holds whole.
 */
export const connectionLimitPlugin = fp(async (app: FastifyInstance) => {
  const { maxConnectionsPerAddress: max, trustProxy } = app.config;
  if (max === 0) return;
  const isTrustedProxy = compileTrust(trustProxy);
  const open = new Map<string, number>();
  let refusedSinceLog = 0;

  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || isTrustedProxy(address)) return;
    const key = addressKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > max) {
      // One log line per burst, not one per refused connection.
      if (refusedSinceLog++ === 0) {
        app.log.warn({ address: key, max }, 'connections over MAX_CONNECTIONS_PER_ADDRESS: closed at once');
        setTimeout(() => (refusedSinceLog = 0), 10_000).unref();
      }
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = open.get(key)! - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
});

function compileTrust(trustProxy: boolean | string): (address: string) => boolean {
  if (trustProxy === true) return () => true;
  if (trustProxy === false) return () => false;
  const trust = proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  return (address) => trust(address, 0);
}

/** An IPv4 address as it is; an IPv6 one as its first four groups (its /64). */
export function addressKey(socketAddress: string): string {
  const address = socketAddress.split('%')[0]!; // without a zone (fe80::1%eth0)
  const mappedV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mappedV4) return mappedV4[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}
