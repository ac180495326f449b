// Markdown files (the initial skill) are imported as strings: tsup's text loader in the build,
// a Jest transform in tests.
declare module '*.md' {
  const text: string;
  export default text;
}
