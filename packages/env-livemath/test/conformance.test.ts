import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createEnvironment } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

describeEnvironmentConformance({
  name: '@skillopt/env-livemath (fixture split, shuffled choices)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  sampleSize: 6,
});

describeEnvironmentConformance({
  name: '@skillopt/env-livemath (fixture split, stored order, theorem and sketch shown)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR, shuffle_choices: false, use_theorem: true, use_sketch: true }),
  sampleSize: 4,
});
