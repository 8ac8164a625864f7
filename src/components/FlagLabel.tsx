import { Box } from '@mui/material';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

// O2: an exhibitor flag in the organiser's language. The words come from the locale key named
// after the flag (organiser.flagLabels.<flag>), so a flag added in the data needs a locale entry,
// not code; until it has one, the code name stands alone. The code stays beside the words as a
// hint: it is what the import file, the API and support use.

/** The flag's words, or its code name when no locale entry names it. */
export function flagWords(t: TFunction, flag: string): string {
  return t(`organiser.flagLabels.${flag}`, { defaultValue: flag });
}

export function FlagLabel({ flag }: { flag: string }) {
  const { t } = useTranslation();
  const words = flagWords(t, flag);
  if (words === flag) return <>{flag}</>;
  return (
    <>
      {words}{' '}
      <Box component="code" sx={{ color: 'text.secondary', fontSize: '0.8em' }}>
        {flag}
      </Box>
    </>
  );
}
