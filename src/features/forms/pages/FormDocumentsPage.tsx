import { Alert, Box, Button, FormControl, InputLabel, Link, MenuItem, Paper, Select, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { findScreen, findScreenByPath } from '../../../engine/catalogue';
import { LANGUAGE_OPTIONS, isLanguage, type Language } from '../../../engine/language';
import { useCatalogue } from '../../../lib/catalogue';
import { typedApi } from '../../../lib/api';
import type { ApiData } from '../../../lib/typed-api';
import { useApi } from '../../../lib/use-api';
import { PageLoading } from '../../../components/PageLoading';
import { ResponsiveTable, type ResponsiveColumn } from '../../../components/ResponsiveTable';

// F7: the documents a submitted form yields (forms.yaml `documents:`; S06: one visa invitation
// letter per applicant), made by the server as PDFs. Which form is the screen's `documentsOf`
// (screens.yaml); what the list shows (names, summary columns, texts) comes with the answer.

type FormDocument = ApiData<'GET', '/forms/{id}/documents'>[number];
type DocumentItem = FormDocument['items'][number];

/** How long a viewed document's object URL lives: long enough for the new tab to load it. */
const VIEW_URL_LIFETIME_MS = 60_000;

export default function FormDocumentsPage() {
  const { t, i18n } = useTranslation();
  const catalogue = useCatalogue();
  const formId = findScreenByPath(catalogue, useLocation().pathname)?.documentsOf ?? '';
  const { data, error } = useApi('GET', '/forms/{id}/documents', { path: { id: formId } }, { vary: [i18n.language] });
  const [pending, setPending] = useState<string | null>(null);
  // The documents are written in the user's language unless they choose another (an embassy may want English).
  const [language, setLanguage] = useState<Language>(isLanguage(i18n.language) ? i18n.language : 'en');
  const formScreen = catalogue.screens.find((screen) => screen.form === formId);
  const formTitle = formScreen ? t(formScreen.title) : formId;
  const formLink = formScreen ? `${findScreen(catalogue, formScreen.id)?.path ?? formScreen.path}?orderName=${encodeURIComponent(formTitle)}` : null;

  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;

  /** The PDF needs the session's bearer token, so it is fetched here and shown from a blob. */
  async function view(document: FormDocument, item: DocumentItem) {
    // Opened now, while the click still counts as the user's, so no pop-up blocker stops it.
    const tab = window.open('', '_blank');
    setPending(`view-${document.id}-${item.index}`);
    try {
      const blob = await typedApi.get('/forms/{id}/documents/{document}/{index}.pdf', {
        path: { id: formId, document: document.id, index: String(item.index) },
        query: { lang: language },
        responseType: 'blob',
      });
      const url = URL.createObjectURL(blob);
      if (tab) tab.location.href = url;
      else window.open(url, '_blank');
      setTimeout(() => URL.revokeObjectURL(url), VIEW_URL_LIFETIME_MS);
    } catch {
      // The API client has already said what went wrong.
      tab?.close();
    } finally {
      setPending(null);
    }
  }

  async function download(document: FormDocument, item: DocumentItem) {
    setPending(`download-${document.id}-${item.index}`);
    try {
      await typedApi.download('/forms/{id}/documents/{document}/{index}.pdf', item.fileName, {
        path: { id: formId, document: document.id, index: String(item.index) },
        query: { download: '1', lang: language },
      });
    } catch {
      // The API client has already said what went wrong.
    } finally {
      setPending(null);
    }
  }

  // The form's first column names the item (a visa letter's applicant); the others are its summary.
  const documentColumns = (document: FormDocument): ResponsiveColumn<DocumentItem>[] => [
    ...document.columns.map((column, index) => ({
      key: `column-${index}`,
      label: column,
      primary: index === 0,
      cell: (item: DocumentItem) => (index === 0 ? item.name : item.summary[index - 1]),
    })),
    { key: 'reference', label: t('documents.referenceColumn'), cell: (item) => item.reference },
    {
      key: 'document',
      label: t('documents.documentColumn'),
      actions: true,
      cell: (item) => (
        <Stack direction="row" spacing={1}>
          <Button
            size="small"
            variant="outlined"
            disabled={pending !== null}
            onClick={() => void view(document, item)}
            aria-label={t('documents.viewOf', { document: document.title, name: item.name })}
          >
            {t('documents.view')}
          </Button>
          <Button
            size="small"
            variant="contained"
            disabled={pending !== null}
            onClick={() => void download(document, item)}
            aria-label={t('documents.downloadOf', { document: document.title, name: item.name })}
          >
            {t('documents.download')}
          </Button>
        </Stack>
      ),
    },
  ];

  const openForm = formLink ? (
    <Link component={RouterLink} to={formLink}>
      {t('documents.openForm', { form: formTitle })}
    </Link>
  ) : null;

  return (
    <Box>
      {data.map((document) =>
        document.items.length === 0 ? (
          <Paper key={document.id} variant="outlined" sx={{ p: 3, mb: 2 }}>
            <Typography sx={{ mb: 2 }}>{document.none}</Typography>
            {formLink && (
              <Button component={RouterLink} to={formLink} variant="contained">
                {t('documents.openForm', { form: formTitle })}
              </Button>
            )}
          </Paper>
        ) : (
          <Box key={document.id} component="section" aria-label={document.title} sx={{ mb: 3 }}>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {document.intro}
            </Typography>
            <FormControl size="small" sx={{ mb: 2, minWidth: 220 }}>
              <InputLabel id={`language-${document.id}`}>{t('documents.language')}</InputLabel>
              <Select
                labelId={`language-${document.id}`}
                label={t('documents.language')}
                value={language}
                onChange={(event) => {
                  if (isLanguage(event.target.value)) setLanguage(event.target.value);
                }}
              >
                {LANGUAGE_OPTIONS.map((option) => (
                  <MenuItem key={option.code} value={option.code} lang={option.code === 'cn' ? 'zh-Hans' : option.code}>
                    {option.label}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <ResponsiveTable label={document.title} columns={documentColumns(document)} rows={document.items} rowKey={(item) => item.index} />
          </Box>
        ),
      )}
      {data.some((document) => document.items.length > 0) && openForm && (
        <Typography variant="body2" sx={{ mt: 2 }}>
          {openForm}
        </Typography>
      )}
    </Box>
  );
}
