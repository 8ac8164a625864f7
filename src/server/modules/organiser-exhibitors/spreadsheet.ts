import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

// Reading and writing the exhibitor import's spreadsheets (XLSX or CSV) as rows of text. A cell
// holding a formula reads as "=…" so the import can refuse it like a typed "=".

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

export async function writeTemplate(headers: string[], format: 'xlsx' | 'csv'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Exhibitors');
  sheet.addRow(headers);
  sheet.getRow(1).font = { bold: true };
  headers.forEach((header, index) => (sheet.getColumn(index + 1).width = Math.max(14, header.length + 2)));
  if (format === 'xlsx') return Buffer.from(await workbook.xlsx.writeBuffer());
  // A BOM so that spreadsheet programs read the headers' non-Latin letters as UTF-8.
  return Buffer.concat([Buffer.from('\uFEFF'), Buffer.from(await workbook.csv.writeBuffer())]);
}
