import type { FormDefinition } from './definitions';
import type { EventSettingKind, EventSettingName } from '../schemas/event';

// O2 F5 O1: values a form uses that the organiser sets per event, in the model of
// deadlines and quotas — forms.yaml names them (`fee.setting`, an `above` approval's `setting`) and
// gives the default (its price and currency, its limit); the event's rows (`event_settings`, set in
// the organiser console) hold the values. The form's help texts, the fee total shown before
// submitting and the server's approval rule all read the definition as the event has it.

type Declared = Pick<FormDefinition, 'id' | 'fee' | 'approval'>;

/** The settings the forms name, in forms.yaml order, each once. */
export function eventSettingNames(definitions: readonly Declared[]): EventSettingName[] {
  const names = new Map<string, EventSettingName>();
  const add = (setting: EventSettingName) => {
    const known = names.get(setting.name);
    if (known) known.forms.push(...setting.forms);
    else names.set(setting.name, setting);
  };
  for (const definition of definitions) {
    if (definition.fee?.setting) add({ name: definition.fee.setting, kind: 'money', default: definition.fee.price, currency: definition.fee.currency, forms: [definition.id] });
    if (definition.approval?.when === 'above' && definition.approval.setting)
      add({ name: definition.approval.setting, kind: 'number', default: String(definition.approval.limit), forms: [definition.id] });
  }
  return [...names.values()];
}

/** forms.yaml mistakes about settings: one name used as a price by one form and a limit by another. */
export function eventSettingProblems(definitions: readonly Declared[]): string[] {
  const kinds = new Map<string, EventSettingKind>();
  const problems: string[] = [];
  for (const definition of definitions) {
    const uses: Array<[string | undefined, EventSettingKind]> = [
      [definition.fee?.setting, 'money'],
      [definition.approval?.when === 'above' ? definition.approval.setting : undefined, 'number'],
    ];
    for (const [name, kind] of uses) {
      if (!name) continue;
      const known = kinds.get(name);
      if (known && known !== kind) problems.push(`setting "${name}" is a ${known === 'money' ? 'price' : 'limit'} elsewhere and a ${kind === 'money' ? 'price' : 'limit'} here`);
      else kinds.set(name, kind);
    }
  }
  return problems;
}

const MONEY = /^\d{1,9}(\.\d{1,2})?$/;
const NUMBER = /^\d{1,9}(\.\d{1,6})?$/;

/** The locale key of what is wrong with a value typed for a setting, or null. A limit must be above 0. */
export function eventSettingProblem(kind: EventSettingKind, value: string): string | null {
  if (kind === 'money') return MONEY.test(value) ? null : 'organiser.validation.fee';
  return NUMBER.test(value) && Number(value) > 0 ? null : 'organiser.validation.settingNumber';
}

/** The event's values a form reads: settings by name, and the event's currency (for prices it sets). */
export interface EventSettings {
  values: Readonly<Record<string, string>>;
  currency: string;
}

/**
 * The form as the event has it: a fee whose setting the event set costs that price in the event's
 * currency, an `above` rule whose setting the event set uses that limit; anything the event left
 * unset keeps forms.yaml's value.
 */
export function withEventSettings<Definition extends Declared>(definition: Definition, settings: EventSettings): Definition {
  const { fee, approval } = definition;
  const eventValue = (name: string | undefined) => (name !== undefined && Object.hasOwn(settings.values, name) ? settings.values[name] : undefined);
  const price = eventValue(fee?.setting);
  const limit = approval?.when === 'above' ? eventValue(approval.setting) : undefined;
  if (price === undefined && limit === undefined) return definition;
  return {
    ...definition,
    ...(fee && price !== undefined ? { fee: { ...fee, price: Number(price).toFixed(2), currency: settings.currency } } : {}),
    ...(approval?.when === 'above' && limit !== undefined ? { approval: { ...approval, limit: Number(limit) } } : {}),
  };
}
