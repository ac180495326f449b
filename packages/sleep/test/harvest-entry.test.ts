import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { SkillOptError as SkillOptErrorOfItsEntry } from '@skillopt/contract/errors';
import { sessionSourcesFor } from '../src/harvest-only.js';
import type { SourceId } from '../src/harvest/session-record.js';
import { loadedModules, SOURCE_ROOT } from './loaded-modules.js';

describe('the harvest-only entry', () => {
  it('loads neither zod, @skillopt/core, the whole contract nor sql.js, and still reaches every source', () => {
    const { files, packages } = loadedModules('harvest-only.ts');
    expect([...packages].sort()).toEqual(['@skillopt/contract/errors', '@skillopt/contract/secret-redaction']);
    const relative = [...files].map((file) => path.relative(SOURCE_ROOT, file));
    expect(relative).toEqual(
      expect.arrayContaining(['sources/claude-code/claude-code-source.ts', 'sources/opencode-source.ts', 'harvest/harvest-sessions.ts']),
    );
    expect(relative).not.toContain('checkpoints/checkpoint-store.ts');
  });

  it('is published as @skillopt/sleep/harvest, while the main entry keeps the checkpoint store', () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
    expect(manifest.exports['./harvest'].import.default).toBe('./dist/harvest-only.js');
    expect(manifest.exports['./harvest'].require.default).toBe('./dist/harvest-only.cjs');
    // The main entry is the whole of Sleep (mine, judge, the night through core and the optimizer, agent replays through env-kit).
    expect(loadedModules('index.ts').packages).toEqual(
      new Set([
        '@skillopt/contract',
        '@skillopt/contract/errors',
        '@skillopt/contract/secret-redaction',
        '@skillopt/core',
        '@skillopt/env-kit',
        '@skillopt/optimizer',
        'zod',
      ]),
    );
  });

  it('throws the one SkillOptError class, whichever contract entry a caller took it from', () => {
    expect(SkillOptErrorOfItsEntry).toBe(SkillOptError);
    expect(() => sessionSourcesFor(['claude' as SourceId])).toThrow(SkillOptError);
  });
});
