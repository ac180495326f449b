/**
 * The attributes every number taken from the API carries: a stable test id and the raw JSON value
 * (`null` for a missing one), so a test compares the page with the API without parsing its text.
 */
export function numberAttributes(testId: string, value: number | string | null | undefined): { 'data-testid': string; 'data-value': string } {
  return { 'data-testid': testId, 'data-value': value === undefined ? 'null' : typeof value === 'string' ? value : JSON.stringify(value) };
}
