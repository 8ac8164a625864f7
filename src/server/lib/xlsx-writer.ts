import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { constants } from 'node:zlib';
import archiver from 'archiver';

// A one-sheet XLSX written as XML straight into a ZIP stream. exceljs's streaming
// writer spent most of a 100,000-lead export hashing a style per cell and building XML node by
// node (profiled: 53 s on PostgreSQL against a 5 s budget); here a row is one string. The file
// keeps what the exceljs one had: every text cell a typed text cell (number format "@", so a
// spreadsheet shows it exactly as stored and never runs it), event times real date cells in the
// language's field order, numbers as number cells, links to files as hyperlink cells, a bold
// frozen header row, column widths. The ZIP container is
// archiver's (streaming, ZIP64 when needed) at zlib's fastest level: compressing a 100,000-row
// sheet at the default level took most of the export's time (profiled); the file is about a
// fifth larger.

/** A link cell: `text` shown, `hyperlink` (an absolute URL) opened. */
export interface XlsxLink {
  text: string;
  hyperlink: string;
}

export type XlsxCell = string | number | Date | XlsxLink | null | undefined;

export interface XlsxColumn {
  header: string;
  width: number;
  /** `date`: a date cell shown with `numFmt`; `number`: a number cell (General); `text` (default): a typed text cell. */
  kind?: 'text' | 'date' | 'number';
  numFmt?: string;
}

/** Characters XML 1.0 cannot carry (controls other than tab and line breaks, U+FFFE/U+FFFF). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => ESCAPES[c]!);
}

/** Column letters of a 0-based index: A … Z, AA … */
function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A sheet name Excel accepts: no []:*?/\, not empty, at most 31 characters. */
export function sheetName(name: string): string {
  const cleaned = name
    .replace(/[[\]:*?/\\]/g, ' ')
    .replace(/^'+|'+$/g, '')
    .trim();
  return [...(cleaned || 'Sheet1')].slice(0, 31).join('');
}

/** Days since 1899-12-30 of a wall-clock instant (its UTC fields are the clock shown). */
const EXCEL_EPOCH_DAYS = 25569;
const excelSerial = (date: Date) => date.getTime() / 86_400_000 + EXCEL_EPOCH_DAYS;

// Style indexes of styles.xml below.
const GENERAL_STYLE = 0;
const TEXT_STYLE = 1;
const HEADER_STYLE = 2;
const FIRST_DATE_STYLE = 3;
/** Built-in number format 49 is "@" (text). Custom formats start at 164. */
const TEXT_FORMAT = 49;
const FIRST_CUSTOM_FORMAT = 164;

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
const HYPERLINK_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink';

/** The sheet's relationships: one external target per link cell (the sheet's <hyperlinks> name them by id). */
function sheetRelsXml(targets: readonly string[]): string {
  const relationships = targets.map((target, i) => `<Relationship Id="rId${i + 1}" Type="${HYPERLINK_TYPE}" Target="${xmlText(target)}" TargetMode="External"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`;
}

function workbookXml(name: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><bookViews><workbookView/></bookViews><sheets><sheet name="${xmlText(sheetName(name))}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
}

function stylesXml(dateFormats: string[]): string {
  const numFmts = dateFormats.map((format, i) => `<numFmt numFmtId="${FIRST_CUSTOM_FORMAT + i}" formatCode="${xmlText(format)}"/>`).join('');
  const dateXfs = dateFormats.map((_, i) => `<xf numFmtId="${FIRST_CUSTOM_FORMAT + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${numFmts ? `<numFmts count="${dateFormats.length}">${numFmts}</numFmts>` : ''}<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${FIRST_DATE_STYLE + dateFormats.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="${TEXT_FORMAT}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="${TEXT_FORMAT}" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>${dateXfs}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
}

/**
 * Sheet XML waiting for the compressor: sent on in pieces of about this size. Kept under V8's
 * large-object size (128 KB, a two-byte string being 2 bytes a character): a larger piece is
 * flattened into a large object, which outlives the scavenges of a long export and is freed only by
 * a full collection (measured: 10–60 MB more memory during a 364,643-row export at 256 K).
 */
const FLUSH_CHARS = 32 * 1024;

export interface XlsxSheetWriter {
  /** Adds a row (after the header); resolves when the output can take more. */
  addRow(cells: readonly XlsxCell[]): Promise<void>;
  /** Ends the sheet and the file; the output is ended. */
  finish(): Promise<void>;
}

/** Starts a one-sheet workbook on the output, its header row written. */
export async function writeXlsxSheet(output: Writable, name: string, columns: readonly XlsxColumn[]): Promise<XlsxSheetWriter> {
  const zip = archiver('zip', { zlib: { level: constants.Z_BEST_SPEED } });
  const sheet = new PassThrough();
  // The archive's failure reaches the caller through the next write or finish: the sheet stream is
  // destroyed with it, so a write waiting for room stops waiting.
  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    sheet.destroy(error);
  };
  zip.on('error', fail);
  zip.on('warning', fail);
  zip.pipe(output);
  const dateFormats = [...new Set(columns.filter((c) => c.kind === 'date').map((c) => c.numFmt ?? 'yyyy-mm-dd hh:mm'))];
  const styleOf = columns.map((c) =>
    c.kind === 'date' ? FIRST_DATE_STYLE + dateFormats.indexOf(c.numFmt ?? 'yyyy-mm-dd hh:mm') : c.kind === 'number' ? GENERAL_STYLE : TEXT_STYLE,
  );
  const letters = columns.map((_, i) => columnLetters(i));
  zip.append(CONTENT_TYPES, { name: '[Content_Types].xml' });
  zip.append(ROOT_RELS, { name: '_rels/.rels' });
  zip.append(workbookXml(name), { name: 'xl/workbook.xml' });
  zip.append(WORKBOOK_RELS, { name: 'xl/_rels/workbook.xml.rels' });
  zip.append(stylesXml(dateFormats), { name: 'xl/styles.xml' });
  zip.append(sheet, { name: 'xl/worksheets/sheet1.xml' });
  const raiseFailure = () => {
    if (failure) throw failure;
  };

  // Each column's default style is its cell style, so a cell typed into later keeps the type.
  const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" style="${styleOf[i]}" customWidth="1"/>`).join('');
  let pending = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`;
  pending += `<row r="1">${columns.map((c, i) => `<c r="${letters[i]}1" s="${HEADER_STYLE}" t="inlineStr"><is><t xml:space="preserve">${xmlText(c.header)}</t></is></c>`).join('')}</row>`;
  let rowNumber = 1;
  // A link cell's reference and target: the sheet lists them after its rows, its relationships hold the targets.
  const links: Array<{ ref: string; target: string }> = [];

  const flush = async () => {
    raiseFailure();
    const text = pending;
    pending = '';
    if (!sheet.write(text)) await once(sheet, 'drain');
    raiseFailure();
  };

  return {
    async addRow(cells) {
      rowNumber += 1;
      let xml = `<row r="${rowNumber}">`;
      for (let i = 0; i < columns.length; i++) {
        const value = cells[i];
        if (value === null || value === undefined || value === '') continue;
        if (typeof value === 'number') {
          if (!Number.isFinite(value)) continue;
          xml += `<c r="${letters[i]}${rowNumber}" s="${styleOf[i]}"><v>${value}</v></c>`;
        } else if (value instanceof Date) {
          if (Number.isNaN(value.getTime())) continue;
          xml += `<c r="${letters[i]}${rowNumber}" s="${styleOf[i]}"><v>${excelSerial(value)}</v></c>`;
        } else if (typeof value === 'object') {
          const ref = `${letters[i]}${rowNumber}`;
          links.push({ ref, target: value.hyperlink });
          xml += `<c r="${ref}" s="${styleOf[i]}" t="inlineStr"><is><t xml:space="preserve">${xmlText(value.text)}</t></is></c>`;
        } else {
          xml += `<c r="${letters[i]}${rowNumber}" s="${styleOf[i]}" t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
        }
      }
      pending += `${xml}</row>`;
      if (pending.length >= FLUSH_CHARS) await flush();
    },
    async finish() {
      pending += '</sheetData>';
      if (links.length > 0) pending += `<hyperlinks>${links.map((link, i) => `<hyperlink ref="${link.ref}" r:id="rId${i + 1}"/>`).join('')}</hyperlinks>`;
      pending += '</worksheet>';
      await flush();
      sheet.end();
      if (links.length > 0) zip.append(sheetRelsXml(links.map((link) => link.target)), { name: 'xl/worksheets/_rels/sheet1.xml.rels' });
      await zip.finalize();
      raiseFailure();
      await finished(output);
    },
  };
}
