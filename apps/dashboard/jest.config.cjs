// The pages are .tsx: Jest also collects test/*.test.tsx, and swc compiles JSX with React's
// automatic runtime, as Vite does for the page.
const base = require('../../jest.base.cjs')(__dirname);
const [pattern, [transformer, options]] = Object.entries(base.transform).find(([key]) => key.includes('tsx'));
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/test/**/*.test.tsx'],
  transform: {
    ...base.transform,
    [pattern]: [transformer, { ...options, jsc: { ...options.jsc, transform: { react: { runtime: 'automatic' } } } }],
  },
  testTimeout: 60_000,
};
