import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createEnvironment } from '../src/index';
import { DEMO_SPLIT_DIR, FIXTURE_SPLIT_DIR } from './helpers';

describeEnvironmentConformance({
  name: '@skillopt/env-searchqa (fixture split)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  sampleSize: 6,
});

describeEnvironmentConformance({
  name: '@skillopt/env-searchqa (demo split)',
  createEnvironment: () => createEnvironment({ split_dir: DEMO_SPLIT_DIR }),
  sampleSize: 12,
});
