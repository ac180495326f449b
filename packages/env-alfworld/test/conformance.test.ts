import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createEnvironment } from '../src/index';
import { FAKE_ALFWORLD_OPTIONS, FIXTURE_CONFIG } from './helpers';

// The default target answers with a reference in <answer> tags, which is no action: each game is
// played out to its step limit and lost, through the real bridge against the stand-in engine.
describeEnvironmentConformance({
  name: '@skillopt/env-alfworld (fixture games on the stand-in engine)',
  createEnvironment: () => createEnvironment({ ...FIXTURE_CONFIG, max_steps: 3 }, FAKE_ALFWORLD_OPTIONS),
  sampleSize: 6,
});
