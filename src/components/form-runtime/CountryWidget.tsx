import { useMemo, useRef } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { ariaDescribedByIds, labelValue, type WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { countryChoices, matchCountries, shownCountry } from '../../engine/forms/country-field';
import { isCountryCode } from '../../engine/locale-format';

// L1: the widget of a country field (`"ui:widget": "country"` in a UI schema; the
// schema's `country` keyword checks the value). A phone user types part of the name in any
// portal language (シンガポール, 新加坡, Singapore) or the code and picks from the list; the form
// keeps the ISO code. Leaving the field after typing takes the best match, so typing a name and
// moving on is enough (MUI's autoSelect would also pick the first country when the text was
// just cleared). A value stored before the field held codes, naming no country, stays as it was
// typed (the rule asks for a choice from the list).

/** A plain function component, as rjsf 6.11 on React 19 expects of widgets. */
export function CountryWidget(props: WidgetProps) {
  const { id, htmlName, value, required, disabled, readonly, label, hideLabel, rawErrors = [], autofocus, placeholder, onChange, onBlur, onFocus, schema } = props;
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const stored = typeof value === 'string' ? value : '';
  const codes = useMemo(() => countryChoices(language).map((choice) => choice.code), [language]);
  // A value that is no code is one more option, shown as typed, so that nothing stored is hidden.
  const options = useMemo(() => (stored !== '' && !isCountryCode(stored) ? [...codes, stored] : codes), [codes, stored]);
  /** What the user typed since the last choice; null when nothing was typed. */
  const typed = useRef<string | null>(null);
  const choose = (code: string | null) => {
    typed.current = null;
    onChange(code ?? undefined);
  };

  return (
    <Autocomplete
      id={id}
      options={options}
      value={stored === '' ? null : stored}
      getOptionLabel={(option) => shownCountry(option, language)}
      filterOptions={(_options, state) => {
        const found = matchCountries(state.inputValue, language).map((choice) => choice.code);
        return stored !== '' && !isCountryCode(stored) && state.inputValue === stored ? [stored, ...found] : found;
      }}
      onChange={(_event, next) => choose(next)}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') typed.current = text;
      }}
      onBlur={() => {
        const text = typed.current?.trim();
        const best = text ? matchCountries(text, language)[0] : undefined;
        if (best && best.code !== stored) choose(best.code);
        typed.current = null;
        onBlur(id, best?.code ?? stored);
      }}
      onFocus={() => onFocus(id, stored)}
      autoHighlight
      disabled={disabled || readonly}
      noOptionsText={t('formRuntime.country.noMatch')}
      openText={t('formRuntime.country.open')}
      closeText={t('formRuntime.country.close')}
      clearText={t('formRuntime.country.clear')}
      renderInput={(params) => (
        <TextField
          {...params}
          name={htmlName || id}
          label={labelValue(label || undefined, hideLabel, undefined)}
          placeholder={placeholder}
          required={required}
          autoFocus={autofocus}
          error={rawErrors.length > 0}
          slotProps={{
            ...params.slotProps,
            htmlInput: {
              ...params.slotProps.htmlInput,
              maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : undefined,
              'aria-describedby': ariaDescribedByIds(id),
            },
          }}
        />
      )}
    />
  );
}
