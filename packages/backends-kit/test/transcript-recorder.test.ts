import { createTranscriptRecorder, TRANSCRIPT_EVENT_OMITTED_EVENT, TRANSCRIPT_SHORTENED_EVENT } from '../src/index';

describe('the kept transcript', () => {
  it('keeps everything, scrubbed, while it fits', () => {
    const recorder = createTranscriptRecorder({ maxBytes: 10_000, secrets: ['hunter2-secret'] });
    recorder.push({ type: 'start', note: 'password is hunter2-secret' });
    recorder.push({ type: 'auth', api_key: 'sk-abcdefghijklmnop' });
    expect(recorder.events()).toEqual([
      { type: 'start', note: 'password is [redacted]' },
      { type: 'auth', api_key: '[redacted]' },
    ]);
    expect(recorder.shortened).toBe(false);
  });

  it('drops from the middle, keeping the first quarter and the latest events, and says how much it dropped', () => {
    const recorder = createTranscriptRecorder({ maxBytes: 400, secrets: [] });
    for (let index = 0; index < 50; index++) recorder.push({ type: 'step', index });
    const events = recorder.events();
    expect(events[0]).toEqual({ type: 'step', index: 0 });
    expect(events.at(-1)).toEqual({ type: 'step', index: 49 });
    const marker = events.find((event) => event.type === TRANSCRIPT_SHORTENED_EVENT);
    const kept = events.filter((event) => event.type === 'step').length;
    expect(marker).toMatchObject({ droppedEvents: 50 - kept });
    expect(recorder.shortened).toBe(true);
  });

  it('replaces an event too large on its own with a marker naming its type and size', () => {
    const recorder = createTranscriptRecorder({ maxBytes: 400, secrets: [] });
    recorder.push({ type: 'file-dump', text: 'x'.repeat(1000) });
    expect(recorder.events()).toEqual([
      { type: TRANSCRIPT_EVENT_OMITTED_EVENT, originalType: 'file-dump', bytes: 1030, reason: expect.stringContaining('400 bytes') },
    ]);
    expect(recorder.shortened).toBe(true);
  });
});
