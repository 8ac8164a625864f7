import { TextField, type TextFieldProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatOffset } from '../engine/time';

type Props = Omit<TextFieldProps, 'type' | 'value' | 'onChange' | 'label'> & {
  label: string;
  /** Event wall-clock time, "YYYY-MM-DDTHH:MM" ("YYYY-MM-DD" with `dateOnly`), '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** The event's UTC offset: the zone every console date and time is typed in (K2). */
  offsetMinutes: number;
  dateOnly?: boolean;
};

/**
 * K2: the console's one date-time input. What is typed is the event's wall clock, never the
 * browser's, and the field says so ("event time (UTC+07:00)"); convert with toEventLocal /
 * fromEventLocal (src/engine/organiser-events.ts) so a value round-trips exactly.
 */
export function EventDateTimeField({ label, value, onChange, offsetMinutes, dateOnly = false, helperText, slotProps, ...rest }: Props) {
  const { t } = useTranslation();
  const zone = t('console.eventTime', { offset: formatOffset(offsetMinutes) });
  return (
    <TextField
      {...rest}
      type={dateOnly ? 'date' : 'datetime-local'}
      label={dateOnly ? label : `${label} (${formatOffset(offsetMinutes)})`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      helperText={helperText ? `${zone} · ${String(helperText)}` : zone}
      slotProps={{ ...slotProps, inputLabel: { shrink: true } }}
    />
  );
}
