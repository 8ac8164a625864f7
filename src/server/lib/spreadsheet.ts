import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

// Reading and writing the portal's import spreadsheets (XLSX or CSV) as rows of text: the
// organiser's exhibitor import and the forms' lists. A cell holding a formula reads as
// "=…" so an import can refuse it like a typed "=".

export type SheetRows = string[][];

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('formula' in value && value.formula) return `=${value.formula}`;
    if ('sharedFormula' in value && value.sharedFormula) return `=${value.sharedFormula}`;
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('error' in value) return String(value.error);
    return '';
  }
  return String(value);
}

const XLSX_MAGIC = Buffer.from('PK\u0003\u0004', 'latin1');

export function isXlsx(bytes: Buffer): boolean {
  return bytes.subarray(0, 4).equals(XLSX_MAGIC);
}

/**
 * Whether bytes are a spreadsheet by their content: an XLSX (a zip) or text a CSV can be (UTF-8
 * without NUL or other binary control characters). Anything else is refused before parsing.
 */
export function looksLikeSheet(bytes: Buffer): boolean {
  if (isXlsx(bytes)) return true;
  const sample = bytes.subarray(0, 64 * 1024);
  // A sample may end inside a multi-byte letter: drop up to three trailing bytes of one.
  let end = sample.length;
  while (end > 0 && sample.length - end < 3 && (sample[end - 1]! & 0xc0) === 0x80) end--;
  if (end > 0 && sample.length - end < 4 && sample[end - 1]! >= 0xc0) end--;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, end));
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
}

/** The first sheet's rows as trimmed text (a CSV read as typed: no number or date guessing). */
export async function readSheet(bytes: Buffer): Promise<SheetRows> {
  const workbook = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet | undefined;
  if (isXlsx(bytes)) {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    sheet = workbook.worksheets[0];
  } else {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    // Spreadsheet programs in some languages save CSV with semicolons.
    const header = text.split('\n', 1)[0] ?? '';
    const delimiter = header.includes(';') && !header.includes(',') ? ';' : ',';
    sheet = await workbook.csv.read(Readable.from([text]), { map: (value: unknown) => value, parserOptions: { delimiter } } as never);
  }
  if (!sheet) return [];
  const rows: SheetRows = [];
  const width = sheet.columnCount;
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) cells.push(cellText(row.getCell(c).value).trim());
    rows.push(cells);
  }
  return rows;
}

/** Characters a worksheet's name may not hold (Excel refuses the file otherwise), and its length. */
function sheetName(name: string): string {
  return (
    name
      .replace(/[\\/?*[\]:]/g, ' ')
      .trim()
      .slice(0, 31) || 'Sheet1'
  );
}

/** exceljs keeps a sheet's validation rules here (its type declarations leave it out). */
interface DataValidations {
  add(range: string, validation: ExcelJS.DataValidation): void;
}

export interface TemplateOptions {
  /** The first sheet's name. */
  sheetName?: string;
  /** Per column (by index), the texts its cells must be one of: a drop-down list in XLSX. */
  choices?: (string[] | undefined)[];
  /** How many rows below the headers the drop-down lists cover. */
  rows?: number;
  /** A note on the first header (XLSX only): what the sheet cannot hold and where it goes instead. */
  note?: string;
}

/**
 * One header row, nothing else (no example rows to delete). In XLSX, a column with choices gets a
 * drop-down list read from a hidden sheet (a list written into the rule itself breaks at 255
 * characters or on a comma inside a label).
 */
export async function writeTemplate(headers: string[], format: 'xlsx' | 'csv', options: TemplateOptions = {}): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName(options.sheetName ?? 'Exhibitors'));
  sheet.addRow(headers);
  sheet.getRow(1).font = { bold: true };
  // A note on the first header (XLSX; a CSV has nowhere to hold one).
  if (options.note && headers.length > 0) sheet.getCell(1, 1).note = options.note;
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  headers.forEach((header, index) => (sheet.getColumn(index + 1).width = Math.max(14, header.length + 2)));
  const withChoices = (options.choices ?? []).map((choices, index) => ({ choices, index })).filter((column) => column.choices && column.choices.length > 0);
  if (format === 'xlsx' && withChoices.length > 0) {
    const lists = workbook.addWorksheet('Lists', { state: 'veryHidden' });
    const last = (options.rows ?? 5000) + 1;
    withChoices.forEach(({ choices, index }, listIndex) => {
      const listColumn = lists.getColumn(listIndex + 1);
      choices!.forEach((choice, row) => (lists.getCell(row + 1, listIndex + 1).value = choice));
      const letter = listColumn.letter;
      const column = sheet.getColumn(index + 1).letter;
      (sheet as unknown as { dataValidations: DataValidations }).dataValidations.add(`${column}2:${column}${last}`, {
        type: 'list',
        allowBlank: true,
        formulae: [`Lists!$${letter}$1:$${letter}$${choices!.length}`],
        showErrorMessage: true,
      });
    });
  }
  if (format === 'xlsx') return Buffer.from(await workbook.xlsx.writeBuffer());
  // A BOM so that spreadsheet programs read the headers' non-Latin letters as UTF-8.
  return Buffer.concat([Buffer.from('\uFEFF'), Buffer.from(await workbook.csv.writeBuffer())]);
}
