import { Box, Paper, Typography } from '@mui/material';
import { getDefaultRegistry } from '@rjsf/core';
import { Templates } from '@rjsf/mui';
import { getUiOptions, type ObjectFieldTemplateProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';

// A console edit page lays its entity's fields out in titled sections (General, Show days,
// Deadlines…), named in the UI schema: `"ui:options": { "sections": [{ "title": <locale key>,
// "help"?: <locale key>, "fields": [...], "columns"?: 1-4 }] }`. A field no section names (one
// added to the schema later) is shown in the section whose fields hold "*" (else the last), so it
// appears without a code change.
// A field with `"ui:options": { "wide": true }` takes a whole row. An object without sections is laid out as rjsf's MUI theme does.

const MuiObjectField = Templates.ObjectFieldTemplate ?? getDefaultRegistry().templates.ObjectFieldTemplate;

export interface FormSection {
  /** Its heading (a locale key); a section without one is a plain group. */
  title?: string;
  help?: string;
  fields: string[];
  /** How many fields share a row on a wide screen (one on a phone). */
  columns?: number;
}

function isSection(value: unknown): value is FormSection {
  return typeof value === 'object' && value !== null && 'fields' in value && Array.isArray(value.fields);
}

export function SectionsTemplate(props: ObjectFieldTemplateProps) {
  const { t } = useTranslation();
  const option = getUiOptions(props.uiSchema).sections;
  const sections = Array.isArray(option) ? option.filter(isSection) : [];
  if (sections.length === 0) return <MuiObjectField {...props} />;
  const named = new Set(sections.flatMap((section) => section.fields));
  /** A field whose UI schema says `wide` takes a whole row (a group of inputs of its own). */
  const wide = (name: string) => getUiOptions(props.uiSchema?.[name]).wide === true;
  const rest = props.properties.filter((property) => !named.has(property.name));
  const starred = sections.findIndex((section) => section.fields.includes('*'));
  const restAt = starred === -1 ? sections.length - 1 : starred;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {sections.map((section, index) => {
        const shown = section.fields.flatMap((name) => props.properties.filter((property) => property.name === name));
        const members = [...shown, ...(index === restAt ? rest : [])].filter((property) => !property.hidden);
        const columns = section.columns ?? 1;
        return (
          <Paper key={index} variant="outlined" component="section" aria-label={section.title && t(section.title)} sx={{ p: 2, display: 'grid', gap: 2 }}>
            {section.title && (
              <Typography variant="h6" component="h2">
                {t(section.title)}
              </Typography>
            )}
            {section.help && (
              <Typography variant="body2" color="text.secondary">
                {t(section.help)}
              </Typography>
            )}
            <Box sx={{ display: 'grid', gap: 2, alignItems: 'start', gridTemplateColumns: { xs: '1fr', sm: `repeat(${columns}, minmax(0, 1fr))` } }}>
              {members.map((property) => (
                <Box key={property.name} sx={{ minWidth: 0, gridColumn: wide(property.name) ? '1 / -1' : undefined }}>
                  {property.content}
                </Box>
              ))}
            </Box>
          </Paper>
        );
      })}
    </Box>
  );
}
