/**
 * Free loopback ports, picked at run time so that two clusters (or a cluster and the machine's own services,
 * Postgres on 5432 among them) never clash. All are held open together before any is released, so one call
 * never returns the same port twice.
 */
import { createServer, type Server } from 'node:net';

function listen(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listen());
    return servers.map((server) => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
