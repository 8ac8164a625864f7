import { formatMoney } from '../money';
import { feeTotal, type FormDefinition } from './definitions';
import { isCountryField, shownCountry } from './country-field';
import { objectProperties } from './object-properties';
import type { SummaryEntry } from '../schemas/approval-summary';

// O1: what the organiser decides on, as forms.yaml declares it per form (`approvalSummary`): the
// top-level fields shown beside a waiting submission (the booth design and height, the names of
// the badges with the extra ones marked, the guests of a VIP list). No field is named in code.

type Node = Record<string, unknown>;
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The summary of one submission for the organiser. A field the event's form does not have (its
 * patch removed it, and the declaration lists it as optional) is left out.
 */
export function approvalSummary(definition: FormDefinition, schema: { properties?: Record<string, unknown> }, data: Record<string, unknown>, language: string): SummaryEntry[] {
  const rule = definition.approval;
  /** A field's value as text: a country by its name in the organiser's language. */
  const shown = (properties: unknown, name: string, part: unknown) => (isObject(properties) && isCountryField(properties[name]) ? shownCountry(part, language) : part);
  const present = (definition.approvalSummary ?? []).filter(({ field }) => isObject(schema.properties?.[field]));
  return present.map(({ field, show }) => {
    const property = (schema.properties?.[field] ?? {}) as Node;
    const title = typeof property.title === 'string' ? property.title : field;
    const value = data[field];
    if (property.file !== undefined) {
      const ref = isObject(value) && typeof value.id === 'string' ? { id: value.id, name: String(value.name ?? ''), type: String(value.type ?? '') } : null;
      return { field, title, kind: 'file', file: ref };
    }
    if (Array.isArray(value) || property.type === 'array') {
      const items = (Array.isArray(value) ? value : []).map((item) => {
        const record = isObject(item) ? item : {};
        const itemProperties = isObject(property.items) ? property.items.properties : undefined;
        // A declared name the event's form lacks (an optional one its patch removed) is not shown,
        // even where an older draft still holds a value for it.
        const names = show ? show.filter((name) => !isObject(property.items) || objectProperties(property.items).has(name)) : Object.keys(record);
        const text = names
          .map((name) => shown(itemProperties, name, record[name]))
          .filter((part) => (typeof part === 'string' && part.trim() !== '') || typeof part === 'number')
          .join(' ');
        const flagged = rule?.when === 'anyItemFlag' && rule.list === field && record[rule.flag] === true;
        return { text, flagged };
      });
      return { field, title, kind: 'items', items };
    }
    // A section (the contractor's company, e-mail, contact) reads as its texts in a row.
    const section = isObject(value)
      ? Object.entries(value)
          .map(([name, part]) => shown(property.properties, name, part))
          .filter((part) => typeof part === 'string' && part.trim() !== '')
          .join(' · ')
      : null;
    const scalar =
      typeof value === 'string' && isCountryField(property)
        ? shownCountry(value, language)
        : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? value
          : section;
    const label = Array.isArray(property.enum) && typeof scalar === 'string' ? `forms.${definition.id}.enum.${field}.${scalar}` : undefined;
    return { field, title, kind: 'value', value: scalar, ...(label ? { label } : {}) };
  });
}

/** A line of the card saying why a submission waits or what it costs: a locale key and its values. */
export interface ApprovalNote {
  key: string;
  params: Record<string, string | number>;
}

/**
 * O1 F5: why a submission waits and what it costs, from forms.yaml's rules as the event has them
 * (`withEventSettings` applied): a value above an `above` rule's limit names the field, the value
 * and the limit; a fee on flagged items gives their number, the price and the amount due in the
 * fee's currency (K1 hundredths).
 */
export function approvalNotes(
  definition: Pick<FormDefinition, 'approval' | 'fee'>,
  schema: { properties?: Record<string, unknown> },
  data: Record<string, unknown>,
): ApprovalNote[] {
  const notes: ApprovalNote[] = [];
  const rule = definition.approval;
  if (rule?.when === 'above' && typeof data[rule.field] === 'number' && (data[rule.field] as number) > rule.limit) {
    const property = schema.properties?.[rule.field];
    const title = isObject(property) && typeof property.title === 'string' ? property.title : rule.field;
    notes.push({ key: 'approvals.aboveLimit', params: { field: title, value: data[rule.field] as number, limit: rule.limit } });
  }
  const fee = definition.fee;
  if (fee) {
    const { count, total } = feeTotal(fee, data);
    if (count > 0) notes.push({ key: 'approvals.feeDue', params: { count, price: `${formatMoney(fee.price)} ${fee.currency}`, amount: `${formatMoney(total)} ${fee.currency}` } });
  }
  return notes;
}
