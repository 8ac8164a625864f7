import { Box, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Texts } from '../../../engine/forms/patch-editor';
import { INTL_LOCALE, LANGUAGE_OPTIONS } from '../../../engine/language';

/** One text in the portal's four languages, each a field labelled "<what> (<language>)"; an empty one is marked missing. */
export function TextsFields({
  what,
  texts,
  onChange,
  flagMissing = true,
  multiline = false,
}: {
  what: string;
  texts: Texts;
  onChange: (texts: Texts) => void;
  flagMissing?: boolean;
  multiline?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
      {LANGUAGE_OPTIONS.map((option) => {
        const missing = flagMissing && !texts[option.code]?.trim();
        return (
          <TextField
            key={option.code}
            size="small"
            label={t('formEditor.inLanguage', { what, language: option.label })}
            value={texts[option.code] ?? ''}
            onChange={(event) => onChange({ ...texts, [option.code]: event.target.value })}
            multiline={multiline}
            error={missing}
            helperText={missing ? t('formEditor.translationMissing') : undefined}
            slotProps={{ htmlInput: { lang: INTL_LOCALE[option.code] } }}
          />
        );
      })}
    </Box>
  );
}
