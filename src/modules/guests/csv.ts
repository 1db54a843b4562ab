/**
 * CSV cells and rows as RFC 4180 writes them (CRLF line ends; a cell with a comma, a double quote,
 * CR or LF is quoted, its quotes doubled), with spreadsheet formula injection neutralised the way
 * OWASP advises: a cell starting with = + - @, a tab or a carriage return gets a leading single
 * quote, so Excel, LibreOffice and Google Sheets show it as text instead of evaluating it.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell of text that came from outside (a guest's name, e-mail...). */
export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One row: cells joined by commas, ended by CRLF. Numbers are written as they are (never a formula). */
export function csvRow(cells: readonly (string | number | bigint)[]): string {
  let line = "";
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (i > 0) line += ",";
    line += typeof c === "string" ? csvCell(c) : String(c);
  }
  return `${line}\r\n`;
}
