import { Box, ToggleButton } from '@mui/material';

/**
 * One of a few options, as toggle buttons in a named group drawn as one (the dashboard's chart or
 * table, daily or hourly). Not MUI's ToggleButtonGroup: its roving focus registers each button
 * from a ref, a state change inside the commit that made React render the group again
 * synchronously, 20–80 ms of the dashboard's commits under Lighthouse. Each button
 * is in the tab order and says whether it is pressed.
 */
export function ToggleChoice<Option extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: ReadonlyArray<{ value: Option; label: string }>;
  value: Option;
  onChange: (next: Option) => void;
}) {
  const last = options.length - 1;
  return (
    <Box role="group" aria-label={label} sx={{ display: 'inline-flex' }}>
      {options.map((option, index) => (
        <ToggleButton
          key={option.value}
          size="small"
          value={option.value}
          selected={value === option.value}
          onChange={() => onChange(option.value)}
          // Joined as in a group: the inner corners square, the shared border drawn once.
          sx={{
            ...(index > 0 && { ml: '-1px', borderTopLeftRadius: 0, borderBottomLeftRadius: 0 }),
            ...(index < last && { borderTopRightRadius: 0, borderBottomRightRadius: 0 }),
          }}
        >
          {option.label}
        </ToggleButton>
      ))}
    </Box>
  );
}
