import { describeEnvironmentConformance } from '@skillopt/env-kit/conformance';
import { createEnvironment } from '../src/index';
import { FIXTURE_CONFIG } from './helpers';

describeEnvironmentConformance({
  name: '@skillopt/env-officeqa (fixture split)',
  createEnvironment: () => createEnvironment(FIXTURE_CONFIG),
  sampleSize: 12,
});
