import ExcelJS from 'exceljs';

/** The first sheet of an XLSX answer: its header row as text, its data rows, and a row's cell by header. */
export async function firstSheet(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) => sheet.getRow(i + 2));
  const cell = (row: ExcelJS.Row, title: string) => row.getCell(header.indexOf(title) + 1).value;
  return { sheet, header, rows, cell };
}
