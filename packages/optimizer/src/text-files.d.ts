// Markdown prompt templates are imported as strings (tsup's text loader; a Jest transform in tests).
declare module '*.md' {
  const text: string;
  export default text;
}
