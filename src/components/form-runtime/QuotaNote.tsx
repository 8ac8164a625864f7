import { Alert, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { feeTotal, type ItemFee } from '../../engine/forms/definitions';
import type { UploadRules } from '../../engine/forms/files';
import { countedItems } from '../../engine/forms/rules';
import { formatMoney } from '../../engine/money';

/** What FormRuntime hands the fields through rjsf's formContext. */
export interface RuntimeFormContext {
  quotas: Record<string, number>;
  fee?: ItemFee;
  /** V2 V3: the rules of the form's upload purposes (the upload field checks a file before sending it). */
  uploads: UploadRules;
  /** The translated title of a property (its schema title key). */
  label: (key: string) => string;
}

/**
 * F9: a list that needs entries (`minItems`) says how many. F5 V7: a list with a quota (the `quota` keyword) says how much of it is in use ("3 of 5
 * badges"); over the quota it points to the item flag that makes an entry an extra one, and the
 * fee of the extra entries is shown before submitting.
 */
export function QuotaNote({
  kind,
  minItems,
  name,
  title,
  items,
  itemSchema,
  context,
}: {
  kind?: string;
  minItems?: number;
  name: string;
  title: string;
  items: unknown[];
  itemSchema: { properties?: Record<string, { title?: string }> };
  context: RuntimeFormContext;
}) {
  const { t } = useTranslation();
  const limit = kind === undefined ? undefined : context.quotas[kind];
  // F9: a list the form needs says how many entries it needs, while it has fewer.
  const needs = minItems !== undefined && minItems > 0 && items.length < minItems ? t('formRuntime.quota.needs', { count: minItems }) : null;
  if (limit === undefined) {
    return needs ? (
      <Typography variant="body2" sx={{ mb: 1, fontWeight: 600 }}>
        {title}: {needs}
      </Typography>
    ) : null;
  }
  const counted = countedItems(items);
  const fee = context.fee && context.fee.list === name ? context.fee : undefined;
  const flagTitle = fee ? context.label(itemSchema.properties?.[fee.flag]?.title ?? fee.flag) : '';
  const extras = fee ? feeTotal(fee, { [name]: items }) : null;
  return (
    <>
      <Typography variant="body2" sx={{ mb: 1, fontWeight: 600 }} role="status">
        {t('formRuntime.quota.inUse', { list: title, count: counted, limit })}
        {needs ? ` · ${needs}` : ''}
      </Typography>
      {counted > limit && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {fee ? t('formRuntime.quota.overWithFlag', { over: counted - limit, limit, flag: flagTitle }) : t('formRuntime.quota.over', { over: counted - limit, limit })}
        </Alert>
      )}
      {fee && extras && extras.count > 0 && (
        <Typography variant="body2" sx={{ mb: 1 }}>
          {t('formRuntime.quota.fee', { count: extras.count, flag: flagTitle, total: formatMoney(extras.total, fee.currency) })}
        </Typography>
      )}
    </>
  );
}
