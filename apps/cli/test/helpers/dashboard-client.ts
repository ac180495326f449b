import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with exactly these headers (fetch would set Host itself), read whole. */
export function ask(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

export interface StreamedEvent {
  id: number | undefined;
  event: string;
  data: unknown;
}

export interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every event so far, in order. */
  events: StreamedEvent[];
  /** The comment lines so far (`: keep-alive`). */
  comments: string[];
  /** Resolves with the events so far once one of them matches. */
  waitFor(predicate: (event: StreamedEvent, index: number) => boolean): Promise<StreamedEvent[]>;
  /** Resolves once `count` more comments than now have arrived. */
  waitForComments(count: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A server-sent events stream as a browser's EventSource reads it (id, event, data; `:` comments). */
export function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { headers }, (response) => {
      const events: StreamedEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      const notify = () => {
        for (const waiter of waiters) waiter();
      };
      let buffer = '';
      let endedResolve: () => void = () => undefined;
      const ended = new Promise<void>((done) => {
        endedResolve = done;
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const separator = line.indexOf(': ');
              fields.set(line.slice(0, separator), line.slice(separator + 2));
            }
          }
          const event = fields.get('event');
          if (event !== undefined)
            events.push({ id: fields.has('id') ? Number(fields.get('id')) : undefined, event, data: JSON.parse(fields.get('data') ?? 'null') });
        }
        notify();
      });
      response.on('end', () => {
        endedResolve();
        notify();
      });
      response.on('close', () => {
        endedResolve();
        notify();
      });
      const until = (check: () => boolean) =>
        new Promise<void>((done, fail) => {
          const attempt = () => {
            if (check()) {
              waiters.delete(attempt);
              done();
            } else if (response.complete || response.destroyed) {
              waiters.delete(attempt);
              fail(new Error(`the stream ended first; events so far:\n${JSON.stringify(events, null, 1).slice(0, 4000)}`));
            }
          };
          waiters.add(attempt);
          attempt();
        });
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        events,
        comments,
        async waitFor(predicate) {
          await until(() => events.some(predicate));
          return [...events];
        },
        async waitForComments(count) {
          const target = comments.length + count;
          await until(() => comments.length >= target);
        },
        ended,
        close: () => sent.destroy(),
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}
