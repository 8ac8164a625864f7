import { useState } from 'react';
import { Alert, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { missingTranslations, ownKeys, setText, type EditOutcome, type EditorForm } from '../../../engine/forms/patch-editor';
import { INTL_LOCALE, LANGUAGE_OPTIONS } from '../../../engine/language';

// F11: every text this event's changes bring, in the four languages side by side; an empty one is
// a missing translation (publishing refuses it), marked in its cell.

export function TranslationsPanel({ form, apply }: { form: EditorForm; apply: (outcome: EditOutcome) => string | null }) {
  const { t } = useTranslation();
  const keys = ownKeys(form).sort();
  const missing = new Map(missingTranslations(form).map((entry) => [entry.key, new Set(entry.languages)]));
  // The cell being typed in shows what was typed: the form keeps each text trimmed, and showing
  // that back would swallow a space typed between two words.
  const [typing, setTyping] = useState<{ key: string; language: string; value: string } | null>(null);
  const text = (key: string, language: (typeof LANGUAGE_OPTIONS)[number]['code']) =>
    typing?.key === key && typing.language === language ? typing.value : (form.strings[language]?.[key] ?? form.known[language]?.[key] ?? '');
  return (
    <Paper variant="outlined" sx={{ p: 2, overflowX: 'auto' }}>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('formEditor.translationsExplain')}
      </Typography>
      {missing.size > 0 && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {t('formEditor.translationsMissing', { count: [...missing.values()].reduce((sum, languages) => sum + languages.size, 0) })}
        </Alert>
      )}
      {keys.length === 0 ? (
        <Typography variant="body2">{t('formEditor.noOwnTexts')}</Typography>
      ) : (
        // An editing grid (a text per language in each cell), not a list of rows: its inputs line up by language, so no ResponsiveTable.
        <Table size="small" aria-label={t('formEditor.translations')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('formEditor.textKey')}</TableCell>
              {LANGUAGE_OPTIONS.map((option) => (
                <TableCell key={option.code}>{option.label}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {keys.map((key) => (
              <TableRow key={key}>
                <TableCell sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>{key}</TableCell>
                {LANGUAGE_OPTIONS.map((option) => {
                  const lacking = missing.get(key)?.has(option.code) ?? false;
                  return (
                    <TableCell key={option.code}>
                      <TextField
                        size="small"
                        multiline
                        value={text(key, option.code)}
                        error={lacking}
                        helperText={lacking ? t('formEditor.translationMissing') : undefined}
                        onChange={(event) => {
                          setTyping({ key, language: option.code, value: event.target.value });
                          apply(setText(form, key, option.code, event.target.value));
                        }}
                        onBlur={() => setTyping(null)}
                        slotProps={{ htmlInput: { lang: INTL_LOCALE[option.code], 'aria-label': t('formEditor.textIn', { key, language: option.label }) } }}
                      />
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
