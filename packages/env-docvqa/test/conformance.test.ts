import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createEnvironment } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

describeEnvironmentConformance({
  name: '@skillopt/env-docvqa (fixture split)',
  createEnvironment: () => createEnvironment({ split_dir: FIXTURE_SPLIT_DIR }),
  sampleSize: 12,
});
