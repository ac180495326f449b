import { connect } from 'node:net';
import { createSimulatorServer, type SimulatorServer } from '../src/index';
import { GOOD_SKILL, syntheticItems, systemPrompt, userPrompt } from './helpers';

// The simulator server's request limits: a client that sends its headers and then stalls its
// body is answered 408 and disconnected once the request timeout passes, while the time the
// server takes to answer (its simulated latency) is not counted against the client.
const items = syntheticItems();
let server: SimulatorServer;

beforeAll(async () => {
  server = await createSimulatorServer({ port: 0, items, latencyMs: 300, requestTimeoutMs: 150, headersTimeoutMs: 100, maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
});

/** Sends `text` on a raw connection and resolves with everything the server sent once it closes the connection. */
function sendAndWaitForClose(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(text);
  });
}

describe('the simulator server limits', () => {
  it('answers 408 and closes the connection of a client that stalls its body', async () => {
    const body = JSON.stringify({ model: 'sim-target', messages: [{ role: 'user', content: 'hello' }] });
    const headers = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const received = await sendAndWaitForClose(headers + body.slice(0, 10));
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  }, 10_000);

  it('closes the connection of a client that never finishes its headers', async () => {
    const received = await sendAndWaitForClose('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  }, 10_000);

  it('does not count the time it takes to answer against the client', async () => {
    const item = items[3] as { question: string };
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'sim-target',
        messages: [
          { role: 'system', content: systemPrompt(GOOD_SKILL) },
          { role: 'user', content: userPrompt(item.question) },
        ],
      }),
    });
    expect(response.status).toBe(200);
  });

  it('answers a body over the size cap with 413', async () => {
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-target', messages: [{ role: 'user', content: 'x'.repeat(70 * 1024) }] }),
    });
    expect(response.status).toBe(413);
  });

  it('refuses a timeout that is not a positive number', async () => {
    await expect(createSimulatorServer({ requestTimeoutMs: 0 })).rejects.toThrow(/requestTimeoutMs must be a positive number/);
  });
});
