import { MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_OPTIONS, type Language } from '../../../engine/language';
import { changeLanguage, currentLanguage } from '../../../lib/i18n';

/** The language choice on public pages (the header has its own switcher). */
export function LanguagePicker() {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={t('header.language')}
      value={currentLanguage()}
      onChange={(event) => changeLanguage(event.target.value as Language)}
      sx={{ minWidth: 140 }}
    >
      {LANGUAGE_OPTIONS.map((option) => (
        <MenuItem key={option.code} value={option.code}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
