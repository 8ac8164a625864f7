import { useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ImportableList } from '../../../engine/forms/list-import';
import { typedApi } from '../../../lib/api';
import type { ApiData } from '../../../lib/typed-api';
import { ApiError } from '../../../lib/api-client';

// A list of the form filled from a spreadsheet. The server makes the template from
// the list's item schema and checks an uploaded sheet row by row with the form's validator (the
// parsing stays out of the browser bundle); this shows its report and adds the valid rows to the
// form only when the user accepts them.

/** The server's report on an uploaded sheet, as POST /forms/{id}/lists/{list}/import answers it. */
type ListImportReport = ApiData<'POST', '/forms/{id}/lists/{list}/import'>;

/** Problems listed in the dialog; the rest are counted (the file is corrected and chosen again). */
const PROBLEMS_SHOWN = 200;

const SHEET_TYPES = '.xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv';

export function ListImport({
  formId,
  formCode,
  list,
  disabled,
  currentData,
  onAccept,
}: {
  formId: string;
  formCode: string;
  list: ImportableList;
  disabled: boolean;
  /** The form as the page holds it now: rows are checked as items added to its list. */
  currentData: () => Record<string, unknown>;
  onAccept: (items: Record<string, unknown>[]) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [report, setReport] = useState<{ file: string; result: ListImportReport } | null>(null);
  const title = t(list.title);

  async function check(file: File) {
    setBusy(true);
    setFailure(null);
    try {
      const body = new FormData();
      body.append('data', JSON.stringify(currentData()));
      body.append('file', file, file.name);
      const result = await typedApi.post('/forms/{id}/lists/{list}/import', { path: { id: formId, list: list.property }, body, silent: true });
      setReport({ file: file.name, result });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setFailure(error.message);
    } finally {
      setBusy(false);
    }
  }

  async function download() {
    setFailure(null);
    try {
      await typedApi.download('/forms/{id}/lists/{list}/template', `${formCode}-${list.property}.xlsx`, { path: { id: formId, list: list.property }, silent: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setFailure(error.message);
    }
  }

  const result = report?.result;
  const ignored = result?.columns.filter((column) => column.property === null && column.header.trim() !== '').map((column) => column.header) ?? [];
  const invalidRows = result ? new Set(result.problems.map((problem) => problem.row)).size : 0;

  return (
    <Box role="group" aria-label={t('listImport.group', { list: title })} sx={{ mb: 2 }}>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center', rowGap: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {title}
        </Typography>
        <Button size="small" variant="outlined" onClick={() => void download()}>
          {t('listImport.download')}
        </Button>
        <Button size="small" variant="outlined" disabled={disabled || busy} onClick={() => input.current?.click()}>
          {t('listImport.fill')}
        </Button>
        {busy && (
          <Stack direction="row" spacing={1} role="status" sx={{ alignItems: 'center' }}>
            <CircularProgress size={16} />
            <Typography variant="body2">{t('listImport.reading')}</Typography>
          </Stack>
        )}
      </Stack>
      <input
        ref={input}
        type="file"
        accept={SHEET_TYPES}
        hidden
        aria-hidden
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // The same file may be chosen again after it was corrected.
          event.target.value = '';
          if (file) void check(file);
        }}
      />
      {failure && (
        <Alert severity="error" sx={{ mt: 1 }} role="alert">
          {failure}
        </Alert>
      )}
      <Dialog open={report !== null} onClose={() => setReport(null)} aria-labelledby={`list-import-${list.property}-title`} maxWidth="md" fullWidth>
        {report && result && (
          <>
            <DialogTitle id={`list-import-${list.property}-title`}>{t('listImport.title', { list: title, file: report.file })}</DialogTitle>
            <DialogContent>
              <Typography sx={{ mb: 1 }}>{t('listImport.summary', { rows: result.rows, valid: result.valid.length, invalid: invalidRows })}</Typography>
              {(result.skipped?.length ?? 0) > 0 && (
                <Alert severity="info" sx={{ mb: 1 }}>
                  {t('listImport.notInSheet', { lists: result.skipped!.join(', ') })}
                </Alert>
              )}
              {ignored.length > 0 && (
                <Alert severity="info" sx={{ mb: 1 }}>
                  {t('listImport.ignoredColumns', { columns: ignored.join(', ') })}
                </Alert>
              )}
              {result.problems.length > 0 && (
                <Alert severity="warning" sx={{ mb: 1 }}>
                  <Box component="ul" sx={{ m: 0, pl: 2 }}>
                    {result.problems.slice(0, PROBLEMS_SHOWN).map((problem, index) => (
                      <li key={index}>
                        {problem.column
                          ? t('listImport.problemCell', { row: problem.row, column: problem.header, message: problem.message })
                          : t('listImport.problemRow', { row: problem.row, message: problem.message })}
                      </li>
                    ))}
                  </Box>
                  {result.problems.length > PROBLEMS_SHOWN && (
                    <Typography variant="body2">{t('listImport.moreProblems', { count: result.problems.length - PROBLEMS_SHOWN })}</Typography>
                  )}
                </Alert>
              )}
              {result.valid.length === 0 && <Typography>{t('listImport.noRows')}</Typography>}
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setReport(null)}>{t('listImport.cancel')}</Button>
              {result.valid.length > 0 && (
                <Button
                  variant="contained"
                  onClick={() => {
                    setReport(null);
                    onAccept(result.valid.map((row) => row.item));
                  }}
                >
                  {t(result.valid.length === 1 ? 'listImport.addOne' : 'listImport.addMany', { count: result.valid.length })}
                </Button>
              )}
            </DialogActions>
          </>
        )}
      </Dialog>
    </Box>
  );
}
