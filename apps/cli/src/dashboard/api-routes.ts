import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRunReport, readSkillDiff, readSkillVersion, readStepReport } from '@skillopt/core';
import { ApiError, sendJson } from './http-responses.js';
import { runDirectoriesByName } from './run-directories.js';
import { followRunEvents } from './run-events-stream.js';
import type { RunListCache } from './run-list-cache.js';
import type { RunsWatcher } from './runs-watcher.js';
import { type EventStream, openEventStream } from './server-sent-events.js';

/** How often the server looks at the files, and how often an idle event stream says it is alive. */
export interface DashboardTiming {
  eventsPollMs: number;
  statusPollMs: number;
  keepAliveMs: number;
  runsPollMs: number;
}

export interface ApiContext {
  runsFolder: string;
  cache: RunListCache;
  watcher: RunsWatcher;
  timing: DashboardTiming;
  /** Every open event stream, so that closing the server ends them. */
  streams: Set<EventStream>;
}

/**
 * The read-only JSON API (docs/dashboard.md): every answer is one of core's run reader functions,
 * for a run named as the current listing names it (never a path).
 */
export async function answerApiRequest(request: IncomingMessage, response: ServerResponse, url: URL, context: ApiContext): Promise<void> {
  const segments = url.pathname.split('/').slice(2).map(decodeSegment);
  const [collection, name, part, item, ...extra] = segments;
  if (segments.length === 1 && collection === 'runs') {
    sendJson(request, response, 200, { folder: context.runsFolder, runs: await context.cache.list(context.runsFolder) });
    return;
  }
  if (segments.length === 1 && collection === 'events') {
    const stream = track(context, openEventStream(request, response, context.timing.keepAliveMs));
    const unsubscribe = context.watcher.subscribe((names) => stream.send('runs-changed', { names }));
    stream.onClose(unsubscribe);
    return;
  }
  if (collection !== 'runs' || name === undefined || extra.length > 0) throw notFound(url.pathname);
  const directory = (await runDirectoriesByName(context.runsFolder)).get(name);
  if (directory === undefined) throw new ApiError(404, 'not-found', `no run named ${JSON.stringify(name)} in ${context.runsFolder}`);

  if (part === undefined) {
    sendJson(request, response, 200, await readRunReport(directory, context.runsFolder));
  } else if (part === 'steps' && item !== undefined) {
    if (!/^[1-9]\d{0,8}$/.test(item)) throw new ApiError(400, 'bad-parameter', `a step is a number from 1, not ${JSON.stringify(item)}`);
    const step = await readStepReport(directory, Number(item));
    if (step === undefined) throw new ApiError(404, 'not-found', `run ${JSON.stringify(name)} has no committed step ${item}`);
    sendJson(request, response, 200, step);
  } else if (part === 'skills' && item !== undefined) {
    const version = await readSkillVersion(directory, item);
    if (version === undefined) throw new ApiError(404, 'not-found', `run ${JSON.stringify(name)} has no skill version ${JSON.stringify(item)}`);
    sendJson(request, response, 200, version);
  } else if (part === 'diff' && item === undefined) {
    const from = url.searchParams.get('from');
    const to = url.searchParams.get('to');
    if (from === null || to === null) throw new ApiError(400, 'bad-parameter', 'a diff needs ?from=<skill version id>&to=<skill version id>');
    const diff = await readSkillDiff(directory, from, to);
    if (diff === undefined)
      throw new ApiError(404, 'not-found', `run ${JSON.stringify(name)} has no skill version ${JSON.stringify(from)} or ${JSON.stringify(to)}`);
    sendJson(request, response, 200, diff);
  } else if (part === 'events' && item === undefined) {
    const after = resumeOffset(request, url);
    const stream = track(context, openEventStream(request, response, context.timing.keepAliveMs));
    if (stream.closed) return;
    followRunEvents({
      directory,
      stream,
      after,
      pollMs: context.timing.eventsPollMs,
      statusPollMs: context.timing.statusPollMs,
      readStatus: () => context.cache.entry(directory, name),
    });
  } else throw notFound(url.pathname);
}

/** Where a run's event stream starts: after the Last-Event-ID a reconnecting browser sends, or `?after=`, else at the start. */
function resumeOffset(request: IncomingMessage, url: URL): number {
  const given = request.headers['last-event-id'] ?? url.searchParams.get('after') ?? '0';
  const text = Array.isArray(given) ? (given[0] ?? '') : given;
  if (!/^\d{1,15}$/.test(text.trim()))
    throw new ApiError(400, 'bad-parameter', `an event id (Last-Event-ID or ?after=) is a byte offset, a whole number, not ${JSON.stringify(text)}`);
  return Number(text.trim());
}

function track(context: ApiContext, stream: EventStream): EventStream {
  context.streams.add(stream);
  stream.onClose(() => context.streams.delete(stream));
  return stream;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(400, 'bad-parameter', `${JSON.stringify(segment)} is not a valid URL-encoded name`);
  }
}

function notFound(pathname: string): ApiError {
  return new ApiError(404, 'not-found', `no API route ${pathname}; the routes are in docs/dashboard.md`);
}
