import { getDefaultRegistry } from '@rjsf/core';
import type { DescriptionFieldProps, FieldHelpProps, TitleFieldProps, UiSchema } from '@rjsf/utils';
import { Templates } from '@rjsf/mui';
import { useLiveText } from './live-texts';

// WCAG 1.3.1, axe heading-order: a section's title is a heading one level below what
// contains it — the page title is h1, a form's top-level sections h2, their sections h3 — where
// rjsf's MUI theme makes every title an h5.

const MuiTitleField = Templates.TitleFieldTemplate ?? getDefaultRegistry().templates.TitleFieldTemplate;
const MuiDescriptionField = Templates.DescriptionFieldTemplate ?? getDefaultRegistry().templates.DescriptionFieldTemplate;
const MuiFieldHelp = Templates.FieldHelpTemplate ?? getDefaultRegistry().templates.FieldHelpTemplate;

const objectOrEmpty = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {});

/** The ui:options of a field with one of rjsf's MUI slot props (rjsfSlotProps) set. */
function withSlotProps(uiSchema: UiSchema | undefined, slot: string, props: Record<string, unknown>): UiSchema {
  const options = objectOrEmpty(uiSchema?.['ui:options']);
  const mui = objectOrEmpty(options.mui);
  return { ...uiSchema, 'ui:options': { ...options, mui: { ...mui, rjsfSlotProps: { ...objectOrEmpty(mui.rjsfSlotProps), [slot]: props } } } };
}

/** How deep a field is, from its id: root_badges → 1, root_badges_0 → 2, root_company_address → 2. */
export function fieldDepth(titleId: string): number {
  const path = titleId.replace(/__title$/, '').replace(/^root_?/, '');
  return path === '' ? 0 : path.split('_').length;
}

// The texts are read live where the form's texts change while it is shown (live-texts.tsx).

export function HeadingTitleField(props: TitleFieldProps) {
  const title = useLiveText(props.uiSchema, 'title', props.title);
  const depth = fieldDepth(props.id);
  const level = Math.min(6, depth + 1);
  return (
    <MuiTitleField {...props} title={title} uiSchema={withSlotProps(props.uiSchema, 'titleTypography', { component: `h${level}`, variant: depth <= 1 ? 'h6' : 'subtitle1' })} />
  );
}

/** A field's description is text, not a heading (rjsf's MUI theme draws it as an h6). */
export function TextDescriptionField(props: DescriptionFieldProps) {
  const description = useLiveText(props.uiSchema, 'description', props.description);
  return <MuiDescriptionField {...props} description={description} uiSchema={withSlotProps(props.uiSchema, 'descTypography', { component: 'div' })} />;
}

/** A field's help, as rjsf's MUI theme draws it. */
export function LiveFieldHelp(props: FieldHelpProps) {
  const help = useLiveText(props.uiSchema, 'help', props.help);
  return <MuiFieldHelp {...props} help={help} />;
}
