import { Socket } from 'node:net';
import { startRedisServer } from '../src/testing';

function ping(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().trim());
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

describe('startRedisServer', () => {
  it('serves on loopback, stops, comes back on the same port, and is removed', async () => {
    const server = await startRedisServer();
    try {
      expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
      await expect(ping(server.port)).resolves.toBe('+PONG');
      await server.kill();
      await expect(ping(server.port)).rejects.toThrow(/ECONNREFUSED/);
      await server.start();
      await expect(ping(server.port)).resolves.toBe('+PONG');
    } finally {
      await server.stop();
    }
    await expect(ping(server.port)).rejects.toThrow(/ECONNREFUSED/);
  });
});
