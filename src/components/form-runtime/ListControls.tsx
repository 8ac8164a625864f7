import { getDefaultRegistry } from '@rjsf/core';
import { buttonId, getUiOptions, type ArrayFieldItemButtonsTemplateProps, type IconButtonProps } from '@rjsf/utils';
import { Templates } from '@rjsf/mui';
import type { ListAddLabel, ListItemLabels } from './display';
import { useLiveKeys } from './live-texts';

// WCAG 4.1.2, 2.4.6: a list's icon buttons say what they add or remove ("Add a badge",
// "Remove badge 3") instead of rjsf's generic "Add Item" / "Remove". The texts come from the
// translated UI schema (displayUi → listControlLabels); without them rjsf's own texts remain.
// Where the texts change while shown (the form editor's preview), each button follows the texts
// its name is built from (the item's title, the list's own add/remove texts), without its item
// being rendered again.

const MuiAddButton = Templates.ButtonTemplates?.AddButton ?? getDefaultRegistry().templates.ButtonTemplates.AddButton;

/** The list's add button, named by the list's `addLabel` option (tooltip and accessible name). */
export function ListAddButton(props: IconButtonProps) {
  const options = getUiOptions(props.uiSchema);
  const live = options.liveAddLabel as ListAddLabel | undefined;
  useLiveKeys(live?.keys);
  const label = live ? live.text() : options.addLabel;
  if (typeof label !== 'string') return <MuiAddButton {...props} />;
  return <MuiAddButton {...props} title={label} aria-label={label} />;
}

/**
 * An item's move, copy and remove buttons (rjsf's template, same order and ids), each named with
 * the item's number from the items' `itemLabels` option.
 */
export function ListItemButtons(props: ArrayFieldItemButtonsTemplateProps) {
  const { disabled, hasCopy, hasMoveDown, hasMoveUp, hasRemove, fieldPathId, onCopyItem, onRemoveItem, onMoveDownItem, onMoveUpItem, readonly, registry, uiSchema, index } = props;
  const { CopyButton, MoveDownButton, MoveUpButton, RemoveButton } = registry.templates.ButtonTemplates;
  const labels = getUiOptions(uiSchema).itemLabels as ListItemLabels | undefined;
  useLiveKeys(labels?.keys);
  const number = index + 1;
  const named = (label: ((n: number) => string) | undefined) => (label ? { title: label(number), 'aria-label': label(number) } : {});
  return (
    <>
      {(hasMoveUp || hasMoveDown) && (
        <MoveUpButton
          id={buttonId(fieldPathId, 'moveUp')}
          className="rjsf-array-item-move-up"
          disabled={disabled || readonly || !hasMoveUp}
          onClick={onMoveUpItem}
          uiSchema={uiSchema}
          registry={registry}
          {...named(labels?.moveUp)}
        />
      )}
      {(hasMoveUp || hasMoveDown) && (
        <MoveDownButton
          id={buttonId(fieldPathId, 'moveDown')}
          className="rjsf-array-item-move-down"
          disabled={disabled || readonly || !hasMoveDown}
          onClick={onMoveDownItem}
          uiSchema={uiSchema}
          registry={registry}
          {...named(labels?.moveDown)}
        />
      )}
      {hasCopy && (
        <CopyButton
          id={buttonId(fieldPathId, 'copy')}
          className="rjsf-array-item-copy"
          disabled={disabled || readonly}
          onClick={onCopyItem}
          uiSchema={uiSchema}
          registry={registry}
          {...named(labels?.copy)}
        />
      )}
      {hasRemove && (
        <RemoveButton
          id={buttonId(fieldPathId, 'remove')}
          className="rjsf-array-item-remove"
          disabled={disabled || readonly}
          onClick={onRemoveItem}
          uiSchema={uiSchema}
          registry={registry}
          {...named(labels?.remove)}
        />
      )}
    </>
  );
}
