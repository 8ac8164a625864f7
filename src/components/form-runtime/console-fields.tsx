import { useState } from 'react';
import { Box, Checkbox, FormControlLabel, FormGroup, MenuItem, TextField, Typography } from '@mui/material';
import { Templates } from '@rjsf/mui';
import { getUiOptions, type FieldProps, type RegistryFieldsType, type RegistryWidgetsType, type WidgetProps } from '@rjsf/utils';
import { EventDateTimeField } from '../EventDateTimeField';
import { fromEventLocal, toEventLocal } from '../../engine/organiser-events';
import { FlagLabel } from '../FlagLabel';
import { AttachmentsField } from './AttachmentsField';
import { TranslatedTextField } from './TranslatedTextField';

// The console's fields and widgets, registered with the form runtime by name (a UI schema picks
// them: `"ui:field": "namedValues"`, `"ui:widget": "choice"`). What they list (deadline names,
// modules, flag groups…) comes from the page's UI schema options, read from the event's
// vocabulary; their labels arrive translated. Errors of a whole field are shown by rjsf's field
// template; errors of one entry of a map (`deadlines.badges`) beside that entry.

const MuiBaseInput = Templates.BaseInputTemplate!;

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const numberOption = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The errors rjsf holds for `name` inside a field's error schema, as one text. */
function entryErrors(errorSchema: unknown, name: string): string | undefined {
  const node = isRecord(errorSchema) ? errorSchema[name] : undefined;
  const errors = isRecord(node) ? strings(node.__errors) : [];
  return errors.length > 0 ? errors.join(' ') : undefined;
}

/** One entry of a map field: its key in the data, its label, and optionally a help text and whether it is required. */
export interface NamedEntry {
  name: string;
  label: string;
  help?: string;
  required?: boolean;
}

function namedEntries(value: unknown): NamedEntry[] {
  return Array.isArray(value)
    ? value.flatMap((entry) =>
        isRecord(entry) && typeof entry.name === 'string' && typeof entry.label === 'string'
          ? [{ name: entry.name, label: entry.label, help: typeof entry.help === 'string' ? entry.help : undefined, required: entry.required === true }]
          : [],
      )
    : [];
}

/**
 * A map from names chosen elsewhere (a language, a deadline, a quota…) to values, one input per
 * name (`ui:options.entries`); an emptied input removes its name (the event's or the form's
 * default applies). `kind`: `text`, `integer` (digits become a number; anything else is kept as
 * typed, which the schema refuses with its message), `eventDateTime` (event wall-clock time,
 * `offsetMinutes`), `decimal` (text typed with a decimal keypad).
 */
export function NamedValuesField(props: FieldProps) {
  const options = getUiOptions(props.uiSchema);
  const entries = namedEntries(options.entries);
  const kind = typeof options.kind === 'string' ? options.kind : 'text';
  const columns = numberOption(options.columns) ?? 2;
  const data = isRecord(props.formData) ? props.formData : {};
  const change = (name: string, typed: string) => {
    const next: Json = { ...data };
    const trimmed = typed.trim();
    if (trimmed === '') delete next[name];
    else next[name] = kind === 'integer' && /^\d+$/.test(trimmed) ? Number(trimmed) : kind === 'decimal' ? trimmed : typed;
    props.onChange(next, props.fieldPathId.path);
  };
  const shown = (name: string) => {
    const value = data[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <GroupHeading text={options.title} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: columns > 2 ? '1fr 1fr' : '1fr', sm: `repeat(${columns}, minmax(0, 1fr))` } }}>
        {entries.map((entry) => {
          const error = entryErrors(props.errorSchema, entry.name);
          const common = { id: `${props.fieldPathId.$id}_${entry.name}`, label: entry.label, error: Boolean(error), disabled: props.disabled || props.readonly };
          if (kind === 'eventDateTime') {
            return (
              <EventDateTimeField
                key={entry.name}
                {...common}
                value={shown(entry.name)}
                onChange={(local) => change(entry.name, local)}
                offsetMinutes={numberOption(options.offsetMinutes) ?? 0}
                helperText={error ?? entry.help}
              />
            );
          }
          return (
            <TextField
              key={entry.name}
              {...common}
              required={entry.required}
              value={shown(entry.name)}
              onChange={(event) => change(entry.name, event.target.value)}
              helperText={error ?? entry.help}
              slotProps={kind === 'integer' ? { htmlInput: { inputMode: 'numeric' } } : kind === 'decimal' ? { htmlInput: { inputMode: 'decimal' } } : undefined}
            />
          );
        })}
      </Box>
    </Box>
  );
}

/** The label of a field as its translated UI schema gives it, as a heading over a group of inputs. */
function GroupHeading({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <Typography component="h3" variant="subtitle1">
      {text}
    </Typography>
  );
}

/** A list of names chosen by ticking (`ui:options.choices`: [{ value, label }]), in the choices' order. */
export function CheckListField(props: FieldProps) {
  const options = getUiOptions(props.uiSchema);
  const choices = Array.isArray(options.choices) ? options.choices.filter(isRecord) : [];
  const chosen = strings(props.formData);
  return (
    <Box>
      <GroupHeading text={options.title} />
      <FormGroup row>
        {choices.map((choice) => {
          const value = String(choice.value);
          return (
            <FormControlLabel
              key={value}
              label={String(choice.label ?? value)}
              disabled={props.disabled || props.readonly}
              control={
                <Checkbox
                  checked={chosen.includes(value)}
                  onChange={(event) => props.onChange(event.target.checked ? [...chosen, value] : chosen.filter((each) => each !== value), props.fieldPathId.path)}
                />
              }
            />
          );
        })}
      </FormGroup>
    </Box>
  );
}

/** Exhibitor flags, ticked in groups (`ui:options.groups`: [{ label, flags }]); each flag named in words (FlagLabel). */
export function FlagGroupsField(props: FieldProps) {
  const options = getUiOptions(props.uiSchema);
  const groups = Array.isArray(options.groups) ? options.groups.filter(isRecord) : [];
  const data = isRecord(props.formData) ? props.formData : {};
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {groups.map((group) => (
        <Box key={String(group.label)}>
          <GroupHeading text={String(group.label)} />
          <FormGroup row>
            {strings(group.flags).map((flag) => (
              <FormControlLabel
                key={flag}
                label={<FlagLabel flag={flag} />}
                disabled={props.disabled || props.readonly}
                control={<Checkbox checked={data[flag] === true} onChange={(event) => props.onChange({ ...data, [flag]: event.target.checked }, props.fieldPathId.path)} />}
              />
            ))}
          </FormGroup>
        </Box>
      ))}
    </Box>
  );
}

/** The numbers a list of integers holds, from what was typed ("7, 1"); a word that is no number stays -1 (the schema or the rules refuse it). */
function parseNumbers(text: string): number[] {
  return text
    .split(/[,，、\s]+/)
    .filter(Boolean)
    .map((word) => (/^\d+$/.test(word) ? Number(word) : -1));
}

/** A list of whole numbers typed in one input, separated by commas or spaces ("7, 1"). */
export function NumberListField(props: FieldProps) {
  const options = getUiOptions(props.uiSchema);
  const numbers = Array.isArray(props.formData) ? props.formData.filter((item): item is number => typeof item === 'number') : [];
  const [text, setText] = useState(() => numbers.join(', '));
  // The data changed from outside (not by typing here): show it.
  const current = JSON.stringify(parseNumbers(text)) === JSON.stringify(numbers) ? text : numbers.join(', ');
  // A number the schema refuses (days.2: too large) is said here; the list's own errors by rjsf's field template.
  const itemErrors = Object.entries(props.errorSchema ?? {}).flatMap(([key, node]) => (key === '__errors' || !isRecord(node) ? [] : strings(node.__errors)));
  return (
    <TextField
      id={props.fieldPathId.$id}
      fullWidth
      label={options.title}
      value={current}
      error={(props.rawErrors ?? []).length > 0 || itemErrors.length > 0}
      helperText={itemErrors.length > 0 ? [...new Set(itemErrors)].join(' ') : undefined}
      disabled={props.disabled || props.readonly}
      onChange={(event) => {
        setText(event.target.value);
        props.onChange(parseNumbers(event.target.value), props.fieldPathId.path);
      }}
    />
  );
}

/** A choice among `ui:options.choices` ([{ value, label }]) for a value the schema leaves open (a UTC offset). */
export function ChoiceWidget(props: WidgetProps) {
  const options = Array.isArray(props.options.choices) ? props.options.choices.filter(isRecord) : [];
  return (
    <TextField
      select
      fullWidth
      id={props.id}
      label={props.label}
      required={props.required && (props.options.markRequired ?? props.registry.globalUiOptions?.markRequired) !== false}
      value={props.value ?? ''}
      error={(props.rawErrors ?? []).length > 0}
      disabled={props.disabled || props.readonly}
      onChange={(event) => {
        const picked = options.find((choice) => String(choice.value) === event.target.value);
        props.onChange(picked ? picked.value : event.target.value);
      }}
      onBlur={() => props.onBlur(props.id, props.value)}
    >
      {options.map((choice) => (
        <MenuItem key={String(choice.value)} value={String(choice.value)}>
          {String(choice.label ?? choice.value)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A text typed in capitals (a currency code). */
export function UpperCaseWidget(props: WidgetProps) {
  return <MuiBaseInput {...props} onChange={(value: unknown) => props.onChange(typeof value === 'string' ? value.toUpperCase() : value)} />;
}

/** A moment in the event's own time (K2: typed in event time, the field says which), kept as an ISO instant; empty is null. */
export function EventDateTimeWidget(props: WidgetProps) {
  const offsetMinutes = numberOption(props.options.offsetMinutes) ?? 0;
  return (
    <EventDateTimeField
      fullWidth
      id={props.id}
      label={props.label}
      required={props.required && (props.options.markRequired ?? props.registry.globalUiOptions?.markRequired) !== false}
      value={typeof props.value === 'string' && props.value ? toEventLocal(props.value, offsetMinutes) : ''}
      onChange={(local) => props.onChange(local ? fromEventLocal(local, offsetMinutes) || null : null)}
      offsetMinutes={offsetMinutes}
      error={(props.rawErrors ?? []).length > 0}
      disabled={props.disabled || props.readonly}
    />
  );
}

/** A day in the event's own calendar (K2: typed in event time, the field says which). */
export function EventDateWidget(props: WidgetProps) {
  return (
    <EventDateTimeField
      dateOnly
      fullWidth
      id={props.id}
      label={props.label}
      required={props.required && (props.options.markRequired ?? props.registry.globalUiOptions?.markRequired) !== false}
      value={typeof props.value === 'string' ? props.value : ''}
      onChange={(local) => props.onChange(local)}
      offsetMinutes={numberOption(props.options.offsetMinutes) ?? 0}
      error={(props.rawErrors ?? []).length > 0}
      disabled={props.disabled || props.readonly}
    />
  );
}

export const consoleFields: RegistryFieldsType = {
  namedValues: NamedValuesField,
  checkList: CheckListField,
  flagGroups: FlagGroupsField,
  numberList: NumberListField,
  translatedText: TranslatedTextField,
  attachments: AttachmentsField,
};
export const consoleWidgets: RegistryWidgetsType = { choice: ChoiceWidget, upperCase: UpperCaseWidget, eventDate: EventDateWidget, eventDateTime: EventDateTimeWidget };
