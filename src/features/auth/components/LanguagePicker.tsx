import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_OPTIONS, type Language } from '../../../engine/language';
import { changeLanguage, currentLanguage } from '../../../lib/i18n';
import '../../../components/plain/plain.css';

/** The language choice on public pages (the header has its own switcher). */
export function LanguagePicker() {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="plain-field plain-field-inline">
      <label htmlFor={id}>{t('header.language')}</label>
      <select id={id} value={currentLanguage()} onChange={(event) => changeLanguage(event.target.value as Language)}>
        {LANGUAGE_OPTIONS.map((option) => (
          <option key={option.code} value={option.code} lang={option.code === 'cn' ? 'zh' : option.code}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
