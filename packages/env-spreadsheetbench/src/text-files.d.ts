// Markdown files (the initial skill, the prompts) and the Python helpers are imported as strings:
// tsup's text loader in the build, a Jest transform in tests.
declare module '*.md' {
  const text: string;
  export default text;
}
declare module '*.py' {
  const text: string;
  export default text;
}
