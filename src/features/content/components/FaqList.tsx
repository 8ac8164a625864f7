import { Accordion, AccordionDetails, AccordionSummary, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { Markdown } from '../../../components/Markdown';
import type { ApiData } from '../../../lib/typed-api';

export type FaqEntry = ApiData<'GET', '/content/faq'>[number];

/** CT5: the FAQ grouped by category (in the order the organiser set), each question expandable. */
export function FaqList({ entries, openId }: { entries: FaqEntry[]; openId?: number }) {
  const categories = [...new Set(entries.map((entry) => entry.category))];
  return (
    <>
      {categories.map((category) => (
        <section key={category} aria-label={category}>
          <Typography variant="h6" component="h2" sx={{ mt: 2, mb: 1 }}>
            {category}
          </Typography>
          {entries
            .filter((entry) => entry.category === category)
            .map((entry) => (
              <Accordion key={entry.id} id={`faq-${entry.id}`} defaultExpanded={entry.id === openId} disableGutters variant="outlined">
                <AccordionSummary expandIcon={<ExpandMore />}>
                  <Typography component="h3">{entry.question}</Typography>
                </AccordionSummary>
                <AccordionDetails>
                  <Markdown source={entry.answer} />
                </AccordionDetails>
              </Accordion>
            ))}
        </section>
      ))}
    </>
  );
}
