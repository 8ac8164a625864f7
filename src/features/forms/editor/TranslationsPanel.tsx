import { memo, useCallback, useRef, useState } from 'react';
import { Alert, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { missingTranslations, ownKeys, setText, type EditOutcome, type EditorForm } from '../../../engine/forms/patch-editor';
import { INTL_LOCALE, LANGUAGE_OPTIONS, type Language } from '../../../engine/language';

// F11: every text this event's changes bring, in the four languages side by side; an empty one is
// a missing translation (publishing refuses it), marked in its cell.

/**
 * One text in one language. Typing renders again only the cell typed in: each MUI text field of
 * the grid measures its height after it renders (a layout of the page), and the preview beside it
 * is waiting for the same keystroke.
 */
const TranslationCell = memo(function TranslationCell({
  textKey,
  language,
  languageLabel,
  value,
  lacking,
  onText,
  onLeave,
}: {
  textKey: string;
  language: Language;
  languageLabel: string;
  value: string;
  lacking: boolean;
  onText: (key: string, language: Language, value: string) => void;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      multiline
      value={value}
      error={lacking}
      helperText={lacking ? t('formEditor.translationMissing') : undefined}
      onChange={(event) => onText(textKey, language, event.target.value)}
      onBlur={onLeave}
      slotProps={{ htmlInput: { lang: INTL_LOCALE[language], 'aria-label': t('formEditor.textIn', { key: textKey, language: languageLabel }) } }}
    />
  );
});

export function TranslationsPanel({ form, apply }: { form: EditorForm; apply: (outcome: EditOutcome) => string | null }) {
  const { t } = useTranslation();
  // The cells' handlers stay the same while typing (a cell renders again only when its own text changes), reading the form as it is now.
  const current = useRef({ form, apply });
  current.current = { form, apply };
  const keys = ownKeys(form).sort();
  const missing = new Map(missingTranslations(form).map((entry) => [entry.key, new Set(entry.languages)]));
  // The cell being typed in shows what was typed: the form keeps each text trimmed, and showing
  // that back would swallow a space typed between two words.
  const [typing, setTyping] = useState<{ key: string; language: string; value: string } | null>(null);
  const text = (key: string, language: Language) =>
    typing?.key === key && typing.language === language ? typing.value : (form.strings[language]?.[key] ?? form.known[language]?.[key] ?? '');
  const onText = useCallback((key: string, language: Language, value: string) => {
    setTyping({ key, language, value });
    current.current.apply(setText(current.current.form, key, language, value));
  }, []);
  const onLeave = useCallback(() => setTyping(null), []);
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
                {LANGUAGE_OPTIONS.map((option) => (
                  <TableCell key={option.code}>
                    <TranslationCell
                      textKey={key}
                      language={option.code}
                      languageLabel={option.label}
                      value={text(key, option.code)}
                      lacking={missing.get(key)?.has(option.code) ?? false}
                      onText={onText}
                      onLeave={onLeave}
                    />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
