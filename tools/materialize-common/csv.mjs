// Shared by the materializers: the error they report with, and one RFC 4180 CSV parser (DocVQA's
// question CSV and OfficeQA's officeqa_full.csv are both read with it).

/** A problem with the user's input or files: printed as one message, exit code 1 (2 for usage). */
export class MaterializeError extends Error {
  constructor(message, exitCode = 1) {
    super(message);
    this.name = 'MaterializeError';
    this.exitCode = exitCode;
  }
}

// ---------------------------------------------------------------------------------------------
// CSV (RFC 4180): comma-separated fields, optionally in double quotes; a quote inside a quoted
// field is written twice; quoted fields may hold commas and line breaks; records end with CRLF,
// LF or CR. A byte-order mark is skipped. Malformed quoting is an error naming the line.

/** Parses CSV text into records (arrays of fields), each with the line it starts on. */
export function parseCsv(text, source = 'CSV') {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records = [];
  let record = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let index = 0;
  let quotedFieldLine = 0;
  let atFieldStart = true;
  let inQuotes = false;
  let afterClosingQuote = false;

  const endField = () => {
    record.push(field);
    field = '';
    atFieldStart = true;
    afterClosingQuote = false;
  };
  const endRecord = () => {
    endField();
    // A blank line (one empty, unquoted field) is not a record.
    if (!(record.length === 1 && record[0] === '' && !quotedFieldLine)) records.push({ line: recordLine, fields: record });
    record = [];
    quotedFieldLine = 0;
  };

  while (index < input.length) {
    const character = input[index];
    if (inQuotes) {
      if (character === '"') {
        if (input[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        inQuotes = false;
        afterClosingQuote = true;
        index += 1;
        continue;
      }
      if (character === '\n' || (character === '\r' && input[index + 1] !== '\n')) line += 1;
      field += character;
      index += 1;
      continue;
    }
    if (character === ',') {
      endField();
      index += 1;
      continue;
    }
    if (character === '\r' || character === '\n') {
      endRecord();
      index += character === '\r' && input[index + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    if (afterClosingQuote) throw new MaterializeError(`${source} line ${line}: text after the closing quote of a field`);
    if (character === '"') {
      if (!atFieldStart) throw new MaterializeError(`${source} line ${line}: a quote inside an unquoted field (quote the whole field and double the quote)`);
      inQuotes = true;
      quotedFieldLine = line;
      atFieldStart = false;
      index += 1;
      continue;
    }
    atFieldStart = false;
    field += character;
    index += 1;
  }
  if (inQuotes) throw new MaterializeError(`${source} line ${quotedFieldLine}: a quoted field is never closed`);
  if (!(atFieldStart && record.length === 0 && field === '')) endRecord();
  return records;
}
