// The initial skill (markdown) and the bridge script (Python) are imported as strings: tsup's text
// loader in the build, a Jest transform in tests.
declare module '*.md' {
  const text: string;
  export default text;
}

declare module '*.py' {
  const text: string;
  export default text;
}
