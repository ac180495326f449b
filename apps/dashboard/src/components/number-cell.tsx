import { numberAttributes } from './number-attributes.js';

interface NumberCellProps {
  testId: string;
  value: number | null | undefined;
  format: (value: number | null | undefined) => string;
}

/** A table cell with a number from the API: formatted for reading, the raw value in data-value for the tests. */
export function NumberCell({ testId, value, format }: NumberCellProps) {
  return (
    <td className="number" {...numberAttributes(testId, value ?? null)}>
      {format(value)}
    </td>
  );
}
