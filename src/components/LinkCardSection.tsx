import type { ReactNode } from 'react';
import { Card, CardActionArea, CardContent, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';

/** A titled group of cards, each opening its item's page (a group of manuals, the search results of one kind). */
export function LinkCardSection<Item>({
  title,
  items,
  itemKey,
  to,
  spacing = 1,
  children,
}: {
  title: string;
  items: readonly Item[];
  itemKey: (item: Item) => string | number;
  /** The address the card opens. */
  to: (item: Item) => string;
  spacing?: number;
  /** The card's content. */
  children: (item: Item) => ReactNode;
}) {
  return (
    <section aria-label={title}>
      <Typography variant="h6" component="h2" sx={{ mt: 2, mb: 1 }}>
        {title}
      </Typography>
      <Stack spacing={spacing}>
        {items.map((item) => (
          <Card key={itemKey(item)} variant="outlined">
            <CardActionArea component={RouterLink} to={to(item)}>
              <CardContent>{children(item)}</CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Stack>
    </section>
  );
}
