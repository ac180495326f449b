import { SkillOptError } from '@skillopt/contract';
import { SOURCE_IDS, type SourceId } from '../src/harvest/session-record';
import { SESSION_SOURCES, sessionSourcesFor } from '../src/sources/session-sources';

describe('the session sources', () => {
  it('has a reader for every source id, in the order a harvest of all of them reads them', () => {
    expect(SESSION_SOURCES.map((source) => source.id)).toEqual([...SOURCE_IDS]);
    expect(new Set(SESSION_SOURCES.map((source) => source.name)).size).toBe(SOURCE_IDS.length);
  });

  it('gives the readers of the ids asked for, in the order asked', () => {
    expect(sessionSourcesFor(['pi', 'codex']).map((source) => source.name)).toEqual(['Pi', 'Codex']);
  });

  it('refuses an id that is no source, listing the sources (a caller from plain JavaScript)', () => {
    expect(() => sessionSourcesFor(['claude' as SourceId])).toThrow(SkillOptError);
    expect(() => sessionSourcesFor(['claude' as SourceId])).toThrow(/"claude" is not a session source\. The sources are: claude-code, codex, /);
  });
});
